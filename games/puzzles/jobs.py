"""The puzzles' periodic job (``settings.SCHEDULE``, run by the task worker at midnight UTC)."""

from __future__ import annotations

from datetime import datetime

from games.puzzles import services


def choose_puzzle(slot: datetime) -> str:
    """The puzzle of the day that begins at ``slot`` (a run late, or a second one, finds it chosen)."""
    puzzle = services.puzzle_for(slot.date())
    return f"{puzzle.day.isoformat()}: {puzzle.hand}"
