"""Tell players their opponent ran out of time, end the games left out of time, and withdraw seeks
nobody took, now (the task worker's ``correspondence_clocks`` job does it every five minutes)."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils import timezone

from games.correspondence.jobs import keep_clocks


class Command(BaseCommand):
    help = "End correspondence games abandoned out of time; withdraw correspondence seeks nobody took."

    def handle(self, *args, **options) -> None:
        self.stdout.write(keep_clocks(timezone.now()))
