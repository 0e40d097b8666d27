"""The play app's periodic job (``settings.SCHEDULE``, run by the task worker)."""

from __future__ import annotations

from datetime import datetime

from games.play import presence


def close_dead_sockets(slot: datetime) -> str:
    """The sockets of server processes that died are closed (``presence.close_dead``)."""
    return f"{presence.close_dead()} sockets closed"
