"""Correspondence games for tests: a game between two players at a given pace, the clock the test
moves (``games.correspondence.clock.now``), one move at a time."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.correspondence import clock as correspondence_clock
from games.correspondence.models import SeatClock
from games.engine.actions import Action
from games.engine.game import apply
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.play.factories import act, as_form, load, random_action

DAY = timedelta(days=1)
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class Clock:
    """The time the correspondence clock reads, moved by the test."""

    def __init__(self, monkeypatch) -> None:
        self.at = START
        monkeypatch.setattr(correspondence_clock, "now", lambda: self.at)

    def advance(self, **kwargs) -> None:
        self.at += timedelta(**kwargs)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    return Clock(monkeypatch)


def correspondence_game(alice, bob, days: int = 1) -> Game:
    seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob, days_per_move=days)
    return services.game_accept(user=bob, game_id=seek.pk)


def clocks(game: Game) -> dict[int, SeatClock]:
    return {c.index: c for c in SeatClock.objects.filter(game=game)}


def move_once(game: Game, users: dict, seat: int | None = None) -> int:
    """One legal move by a seat due (``seat`` if given); returns the seat that moved."""
    state = load(game)
    seat = state.to_act[0] if seat is None else seat
    act(game, users[seat], as_form(random_action(state, seat, random.Random(1))))
    return seat


def passing_move(game: Game, users: dict, rng: random.Random) -> Action:
    """Plays on (any seat due) until seat 0 is due with a move that passes the turn on, and returns
    that move, unmade."""
    while True:
        state = load(game)
        if state.to_act == (0,):
            mine = random_action(state, 0, rng)
            if 0 not in apply(state, mine)[0].to_act:
                return mine
        move_once(game, users)
