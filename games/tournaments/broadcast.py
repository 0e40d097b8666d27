"""Pushes for tournament pages, through the site's one group sender (``games.play.broadcast``): after
commit, an id and the change's own stamp; the sockets of one process that see the same page share
one drawing of it for that stamp (``live_pages``)."""

from __future__ import annotations

import uuid

from django.db import transaction

from games.play import broadcast


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    message = {"type": "tournament.changed", "tournament": tournament_id, "stamp": uuid.uuid4().hex}
    broadcast.group_send(tournament_group(tournament_id), message)


def tournament_changed_on_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: tournament_changed(tournament_id))


def lobbies_changed_on_commit(tournament) -> None:
    """A match's game was made: its players' open lobbies show it, and "your match is ready", at
    once. Each lobby draws its own lists on the push, so one push serves a whole round: once per
    change to ``tournament`` (the instance a service call locked and works on)."""
    if getattr(tournament, "_lobbies_pushed", False):
        return
    tournament._lobbies_pushed = True
    transaction.on_commit(broadcast.lobby_changed)


def players_told_on_commit(*user_ids: int) -> None:
    """A match of these players is ready: every page they have open says so, after commit."""
    transaction.on_commit(lambda: broadcast.player_news(user_ids))
