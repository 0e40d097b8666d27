"""The only writes to push subscriptions: each in a transaction, the row locked."""

from __future__ import annotations

import base64
import binascii
from datetime import timedelta
from urllib.parse import urlsplit

from django.db import transaction
from django.utils import timezone

from games.webpush.models import PushSubscription

# A player with more browsers than this loses the oldest: a subscription the browser dropped without
# saying so is found only when a push to it fails, and this keeps such rows from piling up meanwhile.
MAX_PER_USER = 10


class BadSubscription(ValueError):
    """What the page sent is not a browser's push subscription (the message says what is wrong)."""


def _b64url(value: object, name: str, length: int) -> str:
    if not isinstance(value, str) or not value or len(value) > 2 * length:
        raise BadSubscription(f"keys.{name} is missing.")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"keys.{name} is not base64url.") from None
    if len(raw) != length:
        raise BadSubscription(f"keys.{name} is not a key of {length} bytes.")
    return value.rstrip("=")


def parse_subscription(data: object) -> tuple[str, str, str]:
    """``(endpoint, p256dh, auth)`` from ``PushSubscription.toJSON()``, or ``BadSubscription``.

    >>> parse_subscription({"endpoint": "http://push.example/x", "keys": {}})
    Traceback (most recent call last):
    ...
    games.webpush.services.BadSubscription: The endpoint is not an https URL.
    """
    if not isinstance(data, dict):
        raise BadSubscription("A subscription is a JSON object.")
    endpoint = parse_endpoint(data.get("endpoint"))
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("keys is missing.")
    p256dh = _b64url(keys.get("p256dh"), "p256dh", 65)
    auth = _b64url(keys.get("auth"), "auth", 16)
    return endpoint, p256dh, auth


def parse_endpoint(endpoint: object) -> str:
    """Push services are reached over https only; anything else was not made by a browser."""
    longest = PushSubscription._meta.get_field("endpoint").max_length
    if not isinstance(endpoint, str) or len(endpoint) > longest:
        raise BadSubscription("The endpoint is missing or too long.")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname:
        raise BadSubscription("The endpoint is not an https URL.")
    return endpoint


@transaction.atomic
def subscription_save(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Store the browser's subscription for ``user``, taking it over from whoever had it before."""
    found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if found is None:
        found = PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    else:
        found.user, found.p256dh, found.auth = user, p256dh, auth
        found.save(update_fields=["user", "p256dh", "auth"])
    mine = PushSubscription.objects.select_for_update().filter(user=user).order_by("-created", "-pk")
    stale = list(mine.values_list("pk", flat=True)[MAX_PER_USER:])
    if stale:
        PushSubscription.objects.filter(pk__in=stale).delete()
    return found


@transaction.atomic
def subscription_delete(*, user, endpoint: str) -> bool:
    """Forget the player's subscription at ``endpoint``; False when they had none there."""
    deleted, _ = PushSubscription.objects.select_for_update().filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


@transaction.atomic
def subscriptions_forget(*, user) -> int:
    """Every subscription of the player (their account is being deleted)."""
    deleted, _ = PushSubscription.objects.select_for_update().filter(user=user).delete()
    return deleted


@transaction.atomic
def subscription_gone(*, subscription_id: int) -> None:
    """The push service no longer knows the subscription (404 or 410): nothing will reach it again."""
    PushSubscription.objects.select_for_update().filter(pk=subscription_id).delete()


@transaction.atomic
def subscription_delivered(*, subscription_id: int) -> None:
    found = PushSubscription.objects.select_for_update().filter(pk=subscription_id)
    found.update(last_success=timezone.now(), refused_since=None)


# A push service that refuses the site's signature (401, 403) says the subscription was made for
# another VAPID key: the site's key was replaced since, and nothing sent to it can arrive. The same
# answer comes for every subscription while the site is given a wrong key, which an operator puts
# right within days: so a subscription is dropped only after a week of refusals and no success.
REFUSED_FOR = timedelta(days=7)


@transaction.atomic
def subscription_refused(*, subscription_id: int) -> bool:
    """Note a refusal of the site's signature; True when it dropped the subscription."""
    found = PushSubscription.objects.select_for_update().filter(pk=subscription_id).first()
    if found is None:
        return False
    now = timezone.now()
    if found.refused_since is None:
        found.refused_since = now
        found.save(update_fields=["refused_since"])
        return False
    if now - found.refused_since < REFUSED_FOR:
        return False
    found.delete()
    return True
