"""The tournaments' periodic job (``settings.SCHEDULE``, run by the task worker every minute)."""

from __future__ import annotations

from datetime import datetime

from games.tournaments import services


def apply_forfeits(slot: datetime) -> str:
    """Forfeit the games whose grace period has run out (``services.apply_due_forfeits``), so the
    forfeit timer holds even when the player who waits never comes back to claim it."""
    report = services.apply_due_forfeits()
    return f"{sum(1 for _, what in report if what.endswith('forfeits'))} forfeits"
