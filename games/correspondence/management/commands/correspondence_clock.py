"""End correspondence games left out of time, and withdraw seeks nobody took (run every few minutes)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.play import services


class Command(BaseCommand):
    help = "End correspondence games abandoned out of time; withdraw correspondence seeks nobody took."

    def handle(self, *args, **options) -> None:
        ended = services.end_abandoned()
        withdrawn = services.withdraw_stale_seeks()
        self.stdout.write(f"games ended as abandoned: {ended}; seeks withdrawn: {withdrawn}")
