"""Helpers for the service tests: games dealt from fixed secrets, the "go" deal on the database,
moves by seat, and refusals that must change nothing.

Deals are stacked with ``games.engine.testing`` so each situation is exact. The "go" deal (alice =
seat 0 deals, bob = seat 1 is pone), as in ``tests/engine/game_support.py``: alice keeps TD 5D 6D 7D
(lays away 8S 9S), bob keeps KH 9C AH 2C (lays away 3S 4S), starter 5C. Play: bob KH 10, alice TD 20,
bob 9C 29, alice go, bob AH 30 (go for 1 to bob), alice 5D 5, bob 2C 7, alice 6D 13, alice 7D 20 (last
card). Show: bob 4, alice 16, crib 5.
"""

from __future__ import annotations

import pytest

from games.play import services
from games.play.models import Game, Move
from tests.play.factories import GO_HANDS, GO_STARTER, act, fixed_secrets, snapshot, stack


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    """Autouse in each service test module that imports it, in place of the directory's "web" one."""
    fixed_secrets(monkeypatch, "services")


def go_deal(game: Game, rules_scores=None, **kw) -> Game:
    return stack(game, dealer=0, hands=GO_HANDS, starter=GO_STARTER, scores=rules_scores, **kw)


def users_of(alice, bob) -> dict:
    return {0: alice, 1: bob}


def discard_both(game: Game, alice, bob) -> None:
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})


def play_moves(game: Game, users: dict, moves) -> None:
    for seat, action in moves:
        act(game, users[seat], action)


def refused(game: Game, error: type[services.ServiceError], call, match: str | None = None):
    """``call()`` raises exactly ``error`` and changes nothing: version, state, status, Moves, Rounds."""
    before = snapshot(game)
    with pytest.raises(services.ServiceError, match=match) as info:
        call()
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value.message}"
    assert info.value.status == error.status
    assert snapshot(game) == before
    return info.value


def assert_log_consistent(game: Game) -> None:
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
