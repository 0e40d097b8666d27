"""Pushes for tournament pages. Like ``games.play.broadcast``: after commit, an id only; each socket renders
the page for its own user."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            tournament_group(tournament_id), {"type": "tournament.changed", "tournament": tournament_id}
        )
    except Exception:  # noqa: BLE001 - best effort: the change is committed, a reload shows it
        log.warning("push to tournament %s failed", tournament_id, exc_info=True)


def tournament_changed_on_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: tournament_changed(tournament_id))
