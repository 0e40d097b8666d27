"""The history app's task (Django's task framework; ``games.queue`` runs it): the analyses of a
finished game, enqueued in the transaction that ends the game (``receivers.on_game_finished``) and
kept in ``GameAnalysis``, so they are ready before anyone opens the record and no request ever
works one out. ``manage.py history_analyse`` enqueues them for finished games that have none.

A run is safe twice (a worker that died may run it again): it writes the one row of its game.
"""

from __future__ import annotations

import logging
import time

from django_tasks import task

from games.history.analysis import as_data, discard_report
from games.history.models import GameAnalysis
from games.history.play_analysis import play_report
from games.play.models import Game

log = logging.getLogger("games.history")

QUEUE = "analysis"


def analysable(game: Game) -> bool:
    """Only finished games of two are analysed (three and four have no expert's table)."""
    return game.players == 2 and game.status == Game.Status.FINISHED


def enqueue_analysis(game: Game) -> None:
    """In the transaction that ends ``game``: its analyses, made by the worker once it commits."""
    if analysable(game):
        analyse_game.using(queue_name=QUEUE).enqueue(game.pk)


def analyse(game: Game) -> GameAnalysis:
    """Work out both analyses of ``game`` and keep them (the row is replaced if there was one)."""
    discards, pegging = as_data(discard_report(game)), as_data(play_report(game))
    row, _ = GameAnalysis.objects.update_or_create(game=game, defaults={"discards": discards,
                                                                         "pegging": pegging})
    return row


@task(queue_name=QUEUE)
def analyse_game(game_id: int) -> str:
    """The analyses of finished game ``game_id``; what came of it."""
    game = Game.objects.filter(pk=game_id).prefetch_related("seats__user").first()
    if game is None or not analysable(game):
        return "gone"
    start = time.perf_counter()
    analyse(game)
    log.info("action=game_analysed game=%s took_ms=%.0f", game_id, (time.perf_counter() - start) * 1000)
    return "analysed"
