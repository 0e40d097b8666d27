"""Send the daily summary of correspondence games waiting on each player (run once a day)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.correspondence.digest import send_digests


class Command(BaseCommand):
    help = "Email each player the correspondence games waiting on them (a rerun the same day sends none)."

    def handle(self, *args, **options) -> None:
        self.stdout.write(f"digests sent: {send_digests()}")
