"""``manage.py history_rebuild``: (re)build the round summaries and player rows of finished games,
and (with ``--ratings``) every rating, from the Move logs.

    python manage.py history_rebuild             # every finished game
    python manage.py history_rebuild --game 42   # one game
    python manage.py history_rebuild --ratings   # also forget all ratings and rate every game again
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from games.history.models import PlayerGame
from games.history.ratings import rebuild_ratings
from games.history.summaries import record_game
from games.play.models import Game


class Command(BaseCommand):
    help = "Rebuild round summaries and per-player rows of finished games from their Move logs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, action="append", help="only this game (repeatable)")
        parser.add_argument("--ratings", action="store_true", help="also recompute every rating from scratch")

    def handle(self, *args: object, **options: object) -> None:
        games = Game.objects.finished().order_by("finished_at", "pk").prefetch_related("seats__user")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        done = unreplayable = 0
        for game in games.iterator(chunk_size=200):
            rows = record_game(game)
            done += 1
            unreplayable += not all(isinstance(r, PlayerGame) and r.replayed for r in rows)
        self.stdout.write(f"Rebuilt {done} finished game{'s' if done != 1 else ''}"
                          + (f" ({unreplayable} whose log does not replay)" if unreplayable else "") + ".")
        if options["ratings"]:
            rated = rebuild_ratings()
            self.stdout.write(f"Rated {rated} game{'s' if rated != 1 else ''} again.")
