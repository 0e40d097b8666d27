"""Fixtures for the concurrency tests: a crew of threads that move at the same moment, and an engine
slow enough that rivals surely queue behind each move."""

from __future__ import annotations

import time

import pytest

from games.engine import game as engine
from tests.live.crew import Crew


@pytest.fixture
def slow_engine(monkeypatch):
    """Hold each move (and each start of a game) inside its transaction a little longer, so rivals
    surely queue behind it."""
    for name in ("apply", "new_game"):
        original = getattr(engine, name)

        def slow(*args, _original=original, **kwargs):
            time.sleep(0.03)
            return _original(*args, **kwargs)

        monkeypatch.setattr(engine, name, slow)


@pytest.fixture
def crew_of():
    crews: list[Crew] = []

    def make(size: int) -> Crew:
        crews.append(Crew(size))
        return crews[-1]

    yield make
    for crew in crews:
        crew.stop()
