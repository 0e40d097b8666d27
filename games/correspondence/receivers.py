"""Play says a correspondence game came to a player's turn: its notice is enqueued as a task in the
move's own transaction, so a move rolled back tells nobody and a move committed cannot lose it."""

from __future__ import annotations


def on_turn_due(sender, *, game, user_ids, **kwargs) -> None:
    from games.correspondence.tasks import enqueue_turn_notices

    enqueue_turn_notices(game, user_ids)
