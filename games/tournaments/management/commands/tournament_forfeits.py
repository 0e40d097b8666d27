"""Apply due forfeits now (the task worker's ``tournament_forfeits`` job does it every minute)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.tournaments import services


class Command(BaseCommand):
    help = (
        "Forfeit every tournament game whose grace period has run out while one player has not made "
        "a move (the other has). Games where neither has moved are reported and left to the organiser."
    )

    def handle(self, *args, **options) -> None:
        report = services.apply_due_forfeits()
        for match, what in report:
            self.stdout.write(f"{match.tournament}: {match.label} (round {match.round_no}): {what}")
        forfeits = sum(1 for _, what in report if what.endswith("forfeits"))
        self.stdout.write(self.style.SUCCESS(f"{forfeits} forfeit{'s' if forfeits != 1 else ''} applied."))
