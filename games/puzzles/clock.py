"""The one place the puzzles read the time: tests move it (``monkeypatch`` on ``now``), never sleep."""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()


def today() -> date:
    """The puzzle day: a new puzzle at midnight UTC, wherever the player is."""
    return now().astimezone(UTC).date()
