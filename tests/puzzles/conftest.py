from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.puzzles import clock as puzzle_clock
from tests.play.factories import fixed_secrets


class Clock:
    """The puzzles' time, moved by the test: ``clock.at(2026, 3, 10, 9)``, ``clock.advance(days=1)``."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.moment

    def at(self, *args: int) -> None:
        self.moment = datetime(*args, tzinfo=UTC)

    def advance(self, **kwargs: float) -> None:
        self.moment += timedelta(**kwargs)


@pytest.fixture(autouse=True)
def clock(monkeypatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(puzzle_clock, "now", c.now)
    return c


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "puzzles")
