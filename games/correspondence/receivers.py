"""Play says a correspondence game came to a player's turn; the notice goes once the move is saved,
from the outbox's thread, so a slow mail server never holds the mover's answer."""

from __future__ import annotations

from django.db import transaction


def on_turn_due(sender, *, game, user_ids, **kwargs) -> None:
    from games.correspondence import notices
    from games.infra import outbox

    game_id = game.pk
    transaction.on_commit(lambda: outbox.send_later(notices.turn_due, game_id, user_ids))
