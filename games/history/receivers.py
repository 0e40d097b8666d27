"""Listeners for ``games.play.signals.game_finished`` (sent inside the finishing transaction).

Each listener works inside its own savepoint: if building the history or the ratings fails, that
part is rolled back and logged, and the game's final move still commits (``manage.py
history_rebuild`` can redo it later), rather than a player being unable to finish a game. The
game's analyses are a task enqueued in the same transaction (``games.history.tasks``): they commit
with the game's end and are made by the task worker, never by the move or a reader's request.
"""

from __future__ import annotations

import logging

from django.db import transaction

from games.history.ratings import rate_game
from games.history.summaries import record_game
from games.history.tasks import enqueue_analysis
from games.play.models import Game

log = logging.getLogger("games.history")


def on_game_finished(sender, game: Game, **kwargs) -> None:
    try:
        with transaction.atomic():
            record_game(game)
    except Exception:
        log.exception("game=%s history could not be recorded", game.pk)
    try:
        with transaction.atomic():
            rate_game(game)
    except Exception:
        log.exception("game=%s ratings could not be updated", game.pk)
    try:
        with transaction.atomic():
            enqueue_analysis(game)
    except Exception:
        log.exception("game=%s analysis could not be enqueued (manage.py history_analyse does it)", game.pk)


def on_result_entered(sender, game: Game, **kwargs) -> None:
    """The director replaced a finished game's result: its rows are written again from it. A rating
    already moved by the game stays as it was (a rating period is not replayed)."""
    try:
        with transaction.atomic():
            record_game(game)
    except Exception:
        log.exception("game=%s history could not be recorded", game.pk)
