"""Sending a notice to a player's browsers through Web Push (RFC 8030), encrypted to each browser
(RFC 8291, aes128gcm) and signed with the site's VAPID key (RFC 8292), by pywebpush.

Each send is an HTTP request to the browser maker's push service: made from a task (turn notices,
``games.correspondence.tasks``), never inside a transaction. A push service that fails for a while
(no answer, 429, 5xx) is tried again by the task with back-off: ``push_to_user`` says which
subscriptions are still to be sent to.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import Enum

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from games.webpush import services
from games.webpush.models import PushSubscription

log = logging.getLogger("games.webpush")

# Push services answer 404 or 410 for a subscription the browser has given up: it never comes back.
GONE = (404, 410)
# The push service refuses the site's VAPID signature for this subscription (services.REFUSED_FOR).
REFUSED = (401, 403)
# A push service that takes longer than this is treated as failing for this notice.
TIMEOUT_SECONDS = 5.0
# A turn notice is still worth showing a day late; after that the push service may drop it.
DEFAULT_TTL = 24 * 3600
# Push services refuse payloads over 4 KB; the texts are cut well below that.
TITLE_CHARS, BODY_CHARS = 80, 300


def push_enabled() -> bool:
    """Both VAPID keys are configured: without them no push service accepts a message from the site."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def payload(title: str, body: str, url: str) -> bytes:
    """What the service worker's ``push`` handler reads.

    >>> payload("Your turn", "bob played the Five of hearts", "/games/12/")
    b'{"title": "Your turn", "body": "bob played the Five of hearts", "url": "/games/12/"}'
    """
    return json.dumps({"title": title[:TITLE_CHARS], "body": body[:BODY_CHARS], "url": url}).encode()


class Outcome(Enum):
    TAKEN = "taken"
    REFUSED = "refused"  # gone, a refused signature, a payload refused: sending again cannot help
    FAILED = "failed"  # no answer, too many requests, the service's own fault: worth trying again


@dataclass
class Pushed:
    """What one notice's sends came to: how many push services took it, and the subscriptions sent
    to for good (taken or refused) and those to try again."""

    taken: int = 0
    done: list[int] = field(default_factory=list)
    again: list[int] = field(default_factory=list)


def push_to_user(user, title: str, body: str, url: str, *, ttl: int = DEFAULT_TTL,
                 skip: Collection[int] = ()) -> Pushed:
    """Send the notice to each of the player's browsers but the subscriptions in ``skip`` (sent to
    already).

    ``url`` is the page a click on the notice opens (a path on this site). A subscription the push
    service no longer knows (404, 410) is deleted, and one whose push service has refused the
    site's signature (401, 403) for a week with no notice taken; other failures are logged, and the
    rest still get the notice. Nothing is sent when push is not configured."""
    pushed = Pushed()
    if not push_enabled():
        return pushed
    data = payload(title, body, url)
    for sub in PushSubscription.objects.filter(user=user).exclude(pk__in=list(skip)).order_by("pk"):
        outcome = _send(sub, data, ttl)
        if outcome is Outcome.TAKEN:
            services.subscription_delivered(subscription_id=sub.pk)
            pushed.taken += 1
        (pushed.again if outcome is Outcome.FAILED else pushed.done).append(sub.pk)
    return pushed


def send_to_user(user, title: str, body: str, url: str, *, ttl: int = DEFAULT_TTL) -> int:
    """Send the notice to each of the player's browsers once (a test notice); how many took it."""
    return push_to_user(user, title, body, url, ttl=ttl).taken


def _send(sub: PushSubscription, data: bytes, ttl: int) -> Outcome:
    try:
        webpush(
            subscription_info=sub.subscription_info(),
            data=data,
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            # A fresh dict each time: pywebpush writes the audience and expiry into it.
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=ttl,
            timeout=TIMEOUT_SECONDS,
        )
    except WebPushException as exc:
        status = exc.status_code
        if status in GONE:
            services.subscription_gone(subscription_id=sub.pk)
            log.info("user=%s action=push_gone service=%s status=%s", sub.user_id, sub.service, status)
            return Outcome.REFUSED
        elif status in REFUSED:
            dropped = services.subscription_refused(subscription_id=sub.pk)
            action = "push_refused_dropped" if dropped else "push_refused"
            log.warning("user=%s action=%s service=%s status=%s: the push service refuses the site's VAPID "
                        "signature (a key replaced since the browser subscribed, or a wrong key)",
                        sub.user_id, action, sub.service, status)
            return Outcome.REFUSED
        log.warning("user=%s action=push_failed service=%s status=%s", sub.user_id, sub.service, status)
        # 429 and the service's own faults pass; any other 4xx says this notice will never be taken.
        return Outcome.FAILED if status is None or status == 429 or status >= 500 else Outcome.REFUSED
    except requests.RequestException as exc:  # no answer: refused, timed out
        log.warning("user=%s action=push_failed service=%s error=%s", sub.user_id, sub.service,
                    type(exc).__name__)
        return Outcome.FAILED
    except ValueError as exc:  # keys the encryption cannot use
        log.warning("user=%s action=push_failed service=%s error=%s", sub.user_id, sub.service,
                    type(exc).__name__)
        return Outcome.REFUSED
    return Outcome.TAKEN
