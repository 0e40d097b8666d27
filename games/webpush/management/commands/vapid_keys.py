from __future__ import annotations

from django.core.management.base import BaseCommand

from games.webpush.keys import new_key_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for the environment (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)."

    def handle(self, *args, **options) -> None:
        public, private = new_key_pair()
        self.stdout.write(
            "# Keep the private key secret. A new pair ends every browser's subscription: players turn\n"
            "# notifications on again.\n"
            f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}"
        )
