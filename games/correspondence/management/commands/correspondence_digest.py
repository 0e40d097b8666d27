"""Send the daily summary of correspondence games waiting on each player (run once a day)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from cribsite import origin
from games.correspondence.tasks import daily_digest


class Command(BaseCommand):
    help = "Email each player the correspondence games waiting on them (a rerun the same day sends none)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--enqueue", action="store_true",
                            help="leave it to the task worker instead of sending from this process")

    def handle(self, *args, enqueue: bool = False, **options) -> None:
        if enqueue:
            daily_digest.enqueue("", origin.for_task())
            self.stdout.write("daily summary enqueued for the task worker")
            return
        self.stdout.write(f"digests sent: {daily_digest.call('', origin.for_task())}")
