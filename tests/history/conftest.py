from __future__ import annotations

import pytest

from games.engine.rules import HouseRules
from tests.history.helpers import EASY, play_table
from tests.play.factories import fixed_secrets


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "history")


@pytest.fixture
def three(alice):
    """Alice and two easy computers, 61 points; with the live snapshot after every move."""
    return play_table(alice, [EASY, EASY], rules=HouseRules(players=3, target=61), seed=3)


@pytest.fixture
def four(alice, bob, carol):
    """Alice (seat 0) and carol (seat 2, invited: her partner) against bob (seat 1, took the open
    seat) and an easy computer (seat 3), 61 points: two people take their seats with game_accept."""
    seats = [{"kind": "open"}, {"kind": "invite", "user": carol}, EASY]
    return play_table(alice, seats, rules=HouseRules(players=4, target=61), seed=4,
                      accept=((bob, 1), (carol, 2)))
