"""``send_to_user`` against a push service standing in on 127.0.0.1: what a push service receives
(an aes128gcm body only the browser can read, a TTL, a VAPID signature by the site's key), and
what the site does with its answers."""

from __future__ import annotations

import base64
import json
import logging
import socket
from datetime import timedelta
from io import StringIO

import http_ece
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.utils import timezone
from py_vapid import Vapid02

from games.webpush import delivery
from games.webpush.delivery import send_to_user
from games.webpush.models import PushSubscription
from tests.play.factories import make_user
from tests.webpush.push_service import Browser, push_service

pytestmark = pytest.mark.django_db


def subscribe(user, browser: Browser, endpoint: str) -> PushSubscription:
    return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=browser.p256dh,
                                           auth=browser.auth)


def _claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def test_the_push_service_gets_an_encrypted_signed_notice_only_the_browser_can_read():
    ann = make_user("ann")
    browser = Browser()
    with push_service() as service:
        sub = subscribe(ann, browser, f"{service.url}/push/ann-phone")
        assert send_to_user(ann, "Your turn", "bob played the Five of hearts", "/games/12/") == 1

    [request] = service.received
    assert request.path == "/push/ann-phone"
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["ttl"] == str(delivery.DEFAULT_TTL)
    # The body is ciphertext: the words are not in it, and the browser's keys decrypt it.
    assert b"Five of hearts" not in request.body
    plain = http_ece.decrypt(request.body, private_key=browser.private_key, auth_secret=browser.auth_secret,
                             version="aes128gcm")
    assert json.loads(plain) == {"title": "Your turn", "body": "bob played the Five of hearts",
                                 "url": "/games/12/"}
    # Signed by the site's VAPID key, for this push service, with the site's contact.
    authorization = request.headers["authorization"]
    assert authorization.startswith("vapid t=")
    assert f"k={settings.VAPID_PUBLIC_KEY}" in authorization
    assert Vapid02.verify(authorization)
    claims = _claims(authorization.split("t=", 1)[1].split(",", 1)[0])
    assert claims["aud"] == service.url
    assert claims["sub"] == settings.VAPID_SUBJECT
    sub.refresh_from_db()
    assert sub.last_success is not None


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_dropped(status: int):
    ann = make_user("ann")
    with push_service() as service:
        service.status = status
        subscribe(ann, Browser(), f"{service.url}/push/gone")
        assert send_to_user(ann, "Your turn", "", "/") == 0
    assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


def test_a_gone_subscription_is_dropped_and_the_others_still_get_the_notice():
    ann, bob = make_user("ann"), make_user("bob")
    with push_service() as gone, push_service() as alive:
        gone.status = 410
        subscribe(ann, Browser(), f"{gone.url}/push/old-laptop")
        phone = subscribe(ann, Browser(), f"{alive.url}/push/phone")
        bobs = subscribe(bob, Browser(), f"{alive.url}/push/bob")
        assert send_to_user(ann, "Your turn", "", "/games/3/") == 1
    assert [r.path for r in alive.received] == ["/push/phone"]  # nothing for bob
    assert set(PushSubscription.objects.all()) == {phone, bobs}


@pytest.mark.parametrize("status", [401, 403])
def test_a_subscription_refusing_the_site_s_signature_is_dropped_after_a_week_without_success(
    status: int, caplog
):
    """A refusal of the VAPID signature is the same for a key replaced since the browser subscribed
    (for good) and for a wrong key given to the site (until an operator mends it): a week of them."""
    ann = make_user("ann")
    with push_service() as service, caplog.at_level(logging.WARNING, "games.webpush"):
        service.status = status
        sub = subscribe(ann, Browser(), f"{service.url}/push/old-key")
        assert send_to_user(ann, "Your turn", "", "/") == 0
        sub.refresh_from_db()
        first = sub.refused_since
        assert first is not None
        # Six days on, still refused: kept, and the first refusal is still the one counted from.
        PushSubscription.objects.filter(pk=sub.pk).update(refused_since=first - timedelta(days=6))
        send_to_user(ann, "Your turn", "", "/")
        sub.refresh_from_db()
        assert sub.refused_since == first - timedelta(days=6)
        # A notice taken in between starts the count again.
        service.status = 201
        assert send_to_user(ann, "Your turn", "", "/") == 1
        sub.refresh_from_db()
        assert sub.refused_since is None
        # A week of refusals with nothing taken: dropped.
        service.status = status
        send_to_user(ann, "Your turn", "", "/")
        PushSubscription.objects.filter(pk=sub.pk).update(refused_since=timezone.now() - timedelta(days=7))
        send_to_user(ann, "Your turn", "", "/")
    assert not PushSubscription.objects.exists()
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"action=push_refused service=127.0.0.1 status={status}" in logged
    assert "action=push_refused_dropped" in logged


def test_other_failures_are_logged_the_subscription_kept_and_the_rest_still_sent(caplog):
    ann = make_user("ann")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        refused = f"http://127.0.0.1:{closed.getsockname()[1]}/push/nobody-listens"
    with push_service() as failing, push_service() as alive, \
            caplog.at_level(logging.WARNING, "games.webpush"):
        failing.status = 500
        subscribe(ann, Browser(), f"{failing.url}/push/busy")
        subscribe(ann, Browser(), refused)
        subscribe(ann, Browser(), f"{alive.url}/push/phone")
        assert send_to_user(ann, "Your turn", "", "/") == 1
    assert PushSubscription.objects.filter(user=ann).count() == 3
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "status=500" in logged
    assert "error=ConnectionError" in logged


@override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="")
def test_without_vapid_keys_nothing_is_sent():
    ann = make_user("ann")
    with push_service() as service:
        subscribe(ann, Browser(), f"{service.url}/push/phone")
        assert send_to_user(ann, "Your turn", "", "/") == 0
    assert service.received == []


def test_long_texts_are_cut_to_fit_a_push_message():
    ann = make_user("ann")
    browser = Browser()
    with push_service() as service:
        subscribe(ann, browser, f"{service.url}/push/phone")
        assert send_to_user(ann, "T" * 500, "B" * 5000, "/") == 1
    plain = http_ece.decrypt(service.received[0].body, private_key=browser.private_key,
                             auth_secret=browser.auth_secret, version="aes128gcm")
    notice = json.loads(plain)
    assert len(notice["title"]) == delivery.TITLE_CHARS and len(notice["body"]) == delivery.BODY_CHARS


def test_vapid_keys_prints_a_pair_the_site_can_sign_with():
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    pairs = dict(line.split("=", 1) for line in out.getvalue().splitlines() if not line.startswith("#"))
    ann = make_user("ann")
    keys = override_settings(**pairs)
    with keys, push_service() as service:
        subscribe(ann, Browser(), f"{service.url}/push/phone")
        assert send_to_user(ann, "Your turn", "", "/") == 1
    authorization = service.received[0].headers["authorization"]
    assert f"k={pairs['VAPID_PUBLIC_KEY']}" in authorization and Vapid02.verify(authorization)


def test_push_test_sends_a_notice_to_the_players_browsers():
    ann = make_user("ann")
    with push_service() as service:
        subscribe(ann, Browser(), f"{service.url}/push/phone")
        out = StringIO()
        call_command("push_test", "ann", stdout=out)
    assert "Sent to 1 browser(s)." in out.getvalue()
    assert len(service.received) == 1
    with pytest.raises(CommandError, match="No player"):
        call_command("push_test", "nobody")
