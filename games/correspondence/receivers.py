"""What play tells of its games at your own pace, heard in the transaction it is sent in: the game
begun and each move keep the clocks, and the players it came to the turn of are sent a notice, a
task enqueued in the move's own transaction, so a move rolled back tells nobody and a move committed
cannot lose it. A game called off counts in nobody's "Your turn (N)" any more."""

from __future__ import annotations

from django.db import transaction

from games.correspondence import services, tasks, turn_count


def on_started(sender, *, game, state, by, **kwargs) -> None:
    _tell(game, services.start_clocks(game, state, by=by))


def on_moved(sender, *, game, state, actor, quiet, **kwargs) -> None:
    _tell(game, services.update_clocks(game, state, actor=actor, quiet=quiet))


def _tell(game, user_ids: tuple[int, ...]) -> None:
    if user_ids:
        tasks.enqueue_turn_notices(game, user_ids)


def on_aborted(sender, *, game, **kwargs) -> None:
    if game.days_per_move:
        users = [seat.user_id for seat in game.seat_list()]
        transaction.on_commit(lambda: turn_count.forget_counts(users))
