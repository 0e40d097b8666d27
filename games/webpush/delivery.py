"""Sending a notice to a player's browsers through Web Push (RFC 8030), encrypted to each browser
(RFC 8291, aes128gcm) and signed with the site's VAPID key (RFC 8292), by pywebpush.

Each send is an HTTP request to the browser maker's push service: call ``send_to_user`` after the
transaction that decided the notice has committed (``transaction.on_commit``), never inside it.
"""

from __future__ import annotations

import json
import logging

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


def send_to_user(user, title: str, body: str, url: str, *, ttl: int = DEFAULT_TTL) -> int:
    """Send the notice to each of the player's browsers; return how many push services took it.

    ``url`` is the page a click on the notice opens (a path on this site). A subscription the push
    service no longer knows (404, 410) is deleted, and one whose push service has refused the
    site's signature (401, 403) for a week with no notice taken; any other failure is logged and the
    rest still get the notice. Nothing is sent, and 0 returned, when push is not configured."""
    if not push_enabled():
        return 0
    data = payload(title, body, url)
    sent = 0
    for sub in PushSubscription.objects.filter(user=user).order_by("pk"):
        if _send(sub, data, ttl):
            services.subscription_delivered(subscription_id=sub.pk)
            sent += 1
    return sent


def _send(sub: PushSubscription, data: bytes, ttl: int) -> bool:
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
        elif status in REFUSED:
            dropped = services.subscription_refused(subscription_id=sub.pk)
            action = "push_refused_dropped" if dropped else "push_refused"
            log.warning("user=%s action=%s service=%s status=%s: the push service refuses the site's VAPID "
                        "signature (a key replaced since the browser subscribed, or a wrong key)",
                        sub.user_id, action, sub.service, status)
        else:
            log.warning("user=%s action=push_failed service=%s status=%s", sub.user_id, sub.service, status)
        return False
    except (requests.RequestException, ValueError) as exc:
        # No answer (refused, timed out) or keys the encryption cannot use.
        log.warning("user=%s action=push_failed service=%s error=%s", sub.user_id, sub.service,
                    type(exc).__name__)
        return False
    return True
