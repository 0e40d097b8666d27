"""Turning notifications on and off from the page: JSON in, logged-in players only, the CSRF token
required, and anything that is not a browser's subscription refused with a 400 that says why."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games.accounts.services import account_delete
from games.webpush.models import PushSubscription
from games.webpush.services import MAX_PER_USER
from tests.play.factories import logged_in, make_user
from tests.webpush.push_service import Browser

pytestmark = pytest.mark.django_db

SUBSCRIBE, UNSUBSCRIBE = reverse("push_subscribe"), reverse("push_unsubscribe")
ENDPOINT = "https://push.example.org/send/abc123"


def post(client: Client, url: str, data, **extra):
    body = data if isinstance(data, (str, bytes)) else json.dumps(data)
    return client.post(url, body, content_type="application/json", **extra)


def test_a_player_turns_notifications_on_and_off():
    ann = make_user("ann")
    client = logged_in(ann)
    browser = Browser()
    answer = post(client, SUBSCRIBE, browser.subscription(ENDPOINT))
    assert answer.status_code == 201
    assert answer.json() == {"state": "on"}
    sub = PushSubscription.objects.get()
    assert (sub.user, sub.endpoint, sub.p256dh, sub.auth) == (ann, ENDPOINT, browser.p256dh, browser.auth)
    # The page posts the same subscription again on each visit: still one row.
    assert post(client, SUBSCRIBE, browser.subscription(ENDPOINT)).status_code == 201
    assert PushSubscription.objects.count() == 1
    answer = post(client, UNSUBSCRIBE, {"endpoint": ENDPOINT})
    assert answer.status_code == 200
    assert answer.json() == {"state": "off"}
    assert not PushSubscription.objects.exists()


def test_a_browser_belongs_to_the_last_player_who_turned_notifications_on_in_it():
    ann, bob = make_user("ann"), make_user("bob")
    browser = Browser()
    post(logged_in(ann), SUBSCRIBE, browser.subscription(ENDPOINT))
    post(logged_in(bob), SUBSCRIBE, browser.subscription(ENDPOINT))
    assert PushSubscription.objects.get().user == bob
    # ann cannot turn off bob's notices.
    post(logged_in(ann), UNSUBSCRIBE, {"endpoint": ENDPOINT})
    assert PushSubscription.objects.get().user == bob


def test_a_player_keeps_their_newest_browsers_only():
    ann = make_user("ann")
    client = logged_in(ann)
    for n in range(MAX_PER_USER + 2):
        post(client, SUBSCRIBE, Browser().subscription(f"{ENDPOINT}/{n}"))
    kept = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert kept == {f"{ENDPOINT}/{n}" for n in range(2, MAX_PER_USER + 2)}


def test_visitors_are_refused():
    for url, data in ((SUBSCRIBE, Browser().subscription(ENDPOINT)), (UNSUBSCRIBE, {"endpoint": ENDPOINT})):
        answer = post(Client(), url, data)
        assert answer.status_code == 403
        assert "Log in" in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_post_without_the_csrf_token_is_refused():
    ann = make_user("ann")
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    assert post(client, SUBSCRIBE, Browser().subscription(ENDPOINT)).status_code == 403
    assert not PushSubscription.objects.exists()
    client.get(reverse("profile", args=["ann"]))  # sets the CSRF cookie, as the page does
    token = client.cookies["csrftoken"].value
    answer = post(client, SUBSCRIBE, Browser().subscription(ENDPOINT), HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 201


def test_only_post():
    client = logged_in(make_user("ann"))
    assert client.get(SUBSCRIBE).status_code == 405
    assert client.get(UNSUBSCRIBE).status_code == 405


def _with(**changes) -> dict:
    sub = Browser().subscription(ENDPOINT)
    keys = changes.pop("keys", {})
    return {**sub, **changes, "keys": {**sub["keys"], **keys}}


@pytest.mark.parametrize(("body", "words"), [
    ("{not json", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    ("[1, 2]", "JSON object"),
    ("x" * 5000, "too long"),
    (_with(endpoint="http://push.example.org/send/abc"), "https"),
    (_with(endpoint="javascript:alert(1)"), "https"),
    (_with(endpoint=None), "endpoint"),
    (_with(endpoint="https://push.example.org/" + "a" * 1000), "too long"),
    ({"endpoint": ENDPOINT}, "keys"),
    (_with(keys={"p256dh": "not base64 !"}), "base64url"),
    (_with(keys={"p256dh": "AAAA"}), "65 bytes"),
    (_with(keys={"auth": ""}), "auth"),
    (_with(keys={"auth": 12}), "auth"),
])
def test_what_is_not_a_subscription_gets_a_400_saying_why(body, words: str):
    answer = post(logged_in(make_user("ann")), SUBSCRIBE, body)
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("body", ["{", "[]", {"endpoint": "ftp://x/y"}, {}])
def test_unsubscribe_refuses_what_is_not_an_endpoint(body):
    assert post(logged_in(make_user("ann")), UNSUBSCRIBE, body).status_code == 400


@override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="")
def test_without_vapid_keys_the_site_takes_no_subscription():
    answer = post(logged_in(make_user("ann")), SUBSCRIBE, Browser().subscription(ENDPOINT))
    assert answer.status_code == 409
    assert "not set up" in answer.json()["error"]


def test_a_deleted_account_has_no_browser_left_to_notify():
    ann, bob = make_user("ann"), make_user("bob")
    post(logged_in(ann), SUBSCRIBE, Browser().subscription(ENDPOINT))
    post(logged_in(bob), SUBSCRIBE, Browser().subscription(ENDPOINT + "/bob"))
    account_delete(user_id=ann.pk)
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]


def test_the_data_download_lists_the_browsers_without_their_secrets():
    from games.accounts.export import player_data

    ann = make_user("ann")
    post(logged_in(ann), SUBSCRIBE, Browser().subscription(ENDPOINT))
    [entry] = player_data(ann)["browser_notifications"]
    assert entry["push_service"] == "push.example.org"
    assert "abc123" not in json.dumps(entry)
