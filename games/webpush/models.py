from __future__ import annotations

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser's push subscription for one player: where the push service takes messages for
    it (``endpoint``, a secret capability URL) and the keys its messages are encrypted to. A browser
    has one endpoint, so it belongs to the last player who turned notifications on in it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 public key (base64url).")
    auth = models.CharField(max_length=50, help_text="The browser's authentication secret (base64url).")
    created = models.DateTimeField(auto_now_add=True)
    last_success = models.DateTimeField(null=True, blank=True)
    refused_since = models.DateTimeField(
        null=True, blank=True,
        help_text="The first of the push service's refusals of the site's signature (401, 403) since "
                  "the last notice it took.",
    )

    class Meta:
        ordering = ["user_id", "created", "pk"]

    def __str__(self) -> str:
        return f"{self.user} on {self.service}"

    @property
    def service(self) -> str:
        """The push service's host: enough to tell subscriptions apart without showing the secret path."""
        from urllib.parse import urlsplit

        return urlsplit(self.endpoint).hostname or "?"

    def subscription_info(self) -> dict:
        """The shape pywebpush (and the browser's ``PushSubscription.toJSON()``) uses."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
