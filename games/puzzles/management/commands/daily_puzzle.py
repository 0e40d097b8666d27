"""``manage.py daily_puzzle``: choose a day's puzzle by hand (the task worker's ``daily_puzzle`` job
chooses each day's at midnight UTC). Running it again the same day changes nothing."""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from games.puzzles import clock, services


class Command(BaseCommand):
    help = "Choose the discard puzzle of the day (today in UTC, or --day) if it has none yet."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--day", help="A day as YYYY-MM-DD, up to today (a day that has none).")

    def handle(self, *args, **options) -> None:
        today = clock.today()
        day = today
        if options["day"]:
            try:
                day = date.fromisoformat(options["day"])
            except ValueError as e:
                raise CommandError("--day is a date as YYYY-MM-DD") from e
            if day > today:
                raise CommandError("A puzzle is chosen on its day, not before (answers would come early).")
        puzzle = services.puzzle_for(day)
        where = "a game played here" if puzzle.source == puzzle.Source.GAME else "a deal made for it"
        self.stdout.write(f"{puzzle.day.isoformat()}: {puzzle.hand} from {where}, "
                          f"best {puzzle.best['laid_away']} by {100 * puzzle.margin:.1f} points in 100")
