"""Tell players their opponent ran out of time, end the games left out of time, and withdraw seeks
nobody took (run every few minutes)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.correspondence.notices import send_out_of_time_notices
from games.play import services


class Command(BaseCommand):
    help = "End correspondence games abandoned out of time; withdraw correspondence seeks nobody took."

    def handle(self, *args, **options) -> None:
        told = send_out_of_time_notices()
        ended = services.end_abandoned()
        withdrawn = services.withdraw_stale_seeks()
        self.stdout.write(f"told of an opponent out of time: {told}; games ended as abandoned: {ended}; "
                          f"seeks withdrawn: {withdrawn}")
