"""``manage.py history_analyse``: the analyses of finished games that have none (games finished
before analyses were kept), as tasks for the task worker, or made here with ``--now``.

    python manage.py history_analyse            # enqueue each finished game of two without one
    python manage.py history_analyse --game 42  # only this game (made again if it has one)
    python manage.py history_analyse --again    # every finished game of two, kept ones made again
    python manage.py history_analyse --now      # work them out in this process, not the worker
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from games.history.tasks import QUEUE, analyse, analyse_game
from games.play.models import Game


class Command(BaseCommand):
    help = "Analyse finished games of two that have no analysis kept (as tasks, or here with --now)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, action="append", help="only this game (repeatable)")
        parser.add_argument("--again", action="store_true", help="also games whose analysis is kept")
        parser.add_argument("--now", action="store_true", help="work them out here instead of enqueuing")

    def handle(self, *args: object, **options: object) -> None:
        games = Game.objects.finished().filter(players=2).order_by("finished_at", "pk")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        elif not options["again"]:
            games = games.filter(analysis__isnull=True)
        count = 0
        for game in games.prefetch_related("seats__user").iterator(chunk_size=200):
            if options["now"]:
                analyse(game)
            else:
                analyse_game.using(queue_name=QUEUE).enqueue(game.pk)
            count += 1
        plural = "" if count == 1 else "s"
        done = "analysed" if options["now"] else "enqueued for the task worker"
        self.stdout.write(f"{count} game{plural} {done}.")
