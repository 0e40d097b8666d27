from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.webpush.delivery import push_enabled, send_to_user


class Command(BaseCommand):
    help = "Send a test notice to every browser where a player turned notifications on."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")

    def handle(self, *args, username: str, **options) -> None:
        if not push_enabled():
            raise CommandError(
                "Push is off: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (manage.py vapid_keys)."
            )
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No player named {username!r}.")
        sent = send_to_user(user, "Cribbage Hall", "Notifications work in this browser.", "/")
        self.stdout.write(f"Sent to {sent} browser(s).")
