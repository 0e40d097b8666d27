from __future__ import annotations

import pytest
from django.test import Client

from games.play import broadcast
from games.play.models import Game
from tests.play.factories import GO_HANDS, fixed_secrets, human_game, logged_in, stack


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    """Every game's secret, so every cut and deal, is the same on each run: a cut that ties
    (one time in seventeen) cannot turn a web test red now and then."""
    fixed_secrets(monkeypatch, "web")


@pytest.fixture
def pushes(monkeypatch):
    """Records broadcast calls instead of sending them."""
    calls: list[tuple] = []
    monkeypatch.setattr(
        broadcast, "game_changed", lambda game_id, version, **kw: calls.append((game_id, version))
    )
    monkeypatch.setattr(broadcast, "lobby_changed", lambda *args, **kwargs: calls.append(("lobby",)))
    return calls


@pytest.fixture
def a(alice) -> Client:
    return logged_in(alice)


@pytest.fixture
def b(bob) -> Client:
    return logged_in(bob)


@pytest.fixture
def go_game(alice, bob) -> Game:
    return stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter="5C")


from tests.correspondence.support import clock  # noqa: E402, F401  the correspondence clock tests move
