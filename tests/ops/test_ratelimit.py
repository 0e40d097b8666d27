"""Rate limits: strict for failed log-ins, generous for moves, a readable 429 either way.

Counters live in the cache, which outlives a test (locmem in this process, or Redis): every test
uses addresses and usernames of its own so that no count leaks from one test into another.
"""

from __future__ import annotations

import random
import secrets
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from games.accounts.throttle import LOGIN_MESSAGE
from games.play import ratelimit, services
from games.play.ratelimit import MOVE_MESSAGE, Rate, parse_rate
from tests.live.support import board_version, two_players
from tests.play.factories import snapshot

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
PASSWORD = "a-Long-pass-phrase-42"


@pytest.fixture(autouse=True)
def _fast_and_frozen(settings, monkeypatch):
    # Hashing is not under test: a cheap hasher keeps each log-in to milliseconds. And one frozen
    # instant, so that a count never straddles two windows of a fixed-window limit.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    frozen = 1_700_000_000 + 60 * random.randint(0, 10**6) + 1
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: frozen))


def an_address() -> str:
    return f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


def a_user(prefix: str = "rl"):
    return get_user_model().objects.create_user(f"{prefix}-{secrets.token_hex(4)}", password=PASSWORD)


def log_in(client: Client, username: str, password: str, url: str = "/accounts/login/"):
    return client.post(url, {"username": username, "password": password})


# --- the counter ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rate"),
    [("600/m", Rate(600, 60)), ("10/min", Rate(10, 60)), ("5/10s", Rate(5, 10)), ("1000/h", Rate(1000, 3600)),
     (" 3 / d ", Rate(3, 86400)), ("off", None), ("0", None), ("", None)],
)
def test_rates_are_read_from_plain_text(text, rate):
    assert parse_rate(text) == rate


@pytest.mark.parametrize("text", ["600", "ten/m", "5/w", "/m"])
def test_a_bad_rate_is_an_error(text):
    with pytest.raises(ValueError, match="not a rate"):
        parse_rate(text)


def test_hit_allows_the_rate_and_refuses_the_next():
    ident = secrets.token_hex(8)
    rate = Rate(3, 60)
    assert [ratelimit.hit("t", ident, rate) for _ in range(4)] == [True, True, True, False]
    assert ratelimit.hit("t", ident + "-other", rate)  # counted per identity
    assert ratelimit.hit("t", ident, None)  # no limit


def test_a_dead_cache_lets_everything_through(monkeypatch):
    class Down:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise ConnectionError("redis is down")

            return fail

    monkeypatch.setattr(ratelimit, "cache", Down())
    assert ratelimit.hit("t", "x", Rate(1, 60)) and ratelimit.hit("t", "x", Rate(1, 60))
    assert not ratelimit.over("t", "x", Rate(1, 60))


def test_the_defaults_are_generous_for_moves_and_strict_for_log_ins():
    moves = parse_rate(settings.RATE_LIMIT_MOVES)
    assert moves.count / moves.seconds >= 10  # a move every 100 ms never meets it
    failures = parse_rate(settings.RATE_LIMIT_LOGIN_FAILURES)
    assert failures.count <= 10 and failures.seconds >= 60


# --- log-ins -------------------------------------------------------------------------------------


def test_too_many_failed_log_ins_block_that_username_from_that_address_with_a_readable_429():
    user = a_user()
    client = Client(REMOTE_ADDR=an_address())
    limit = parse_rate(settings.RATE_LIMIT_LOGIN_FAILURES).count
    for _ in range(limit):
        assert log_in(client, user.username, "wrong").status_code == 400
    # Now even the right password waits: a guesser cannot tell it found the password.
    response = log_in(client, user.username, PASSWORD)
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    page = response.content.decode()
    assert "Too many failed log-ins" in page and 'name="username"' in page
    assert "_auth_user_id" not in client.session
    # Another account from the same address, and the same account from elsewhere, are not blocked.
    other = a_user()
    assert log_in(client, other.username, PASSWORD).status_code == 302
    assert log_in(Client(REMOTE_ADDR=an_address()), user.username, PASSWORD).status_code == 302


def test_the_username_is_matched_whatever_its_case():
    user = a_user()
    client = Client(REMOTE_ADDR=an_address())
    for i in range(parse_rate(settings.RATE_LIMIT_LOGIN_FAILURES).count):
        name = user.username.upper() if i % 2 else user.username
        log_in(client, name, "wrong")
    assert log_in(client, user.username, PASSWORD).status_code == 429


@override_settings(RATE_LIMIT_LOGIN_FAILURES_PER_IP="5/m")
def test_one_address_trying_many_usernames_is_blocked_too():
    client = Client(REMOTE_ADDR=an_address())
    for _ in range(5):
        log_in(client, f"nobody-{secrets.token_hex(3)}", "guess")
    assert log_in(client, a_user().username, PASSWORD).status_code == 429


def test_the_admin_log_in_is_throttled_too():
    staff = a_user("staff")
    staff.is_staff = True
    staff.save()
    client = Client(REMOTE_ADDR=an_address())
    url = reverse("admin:login")
    for _ in range(parse_rate(settings.RATE_LIMIT_LOGIN_FAILURES).count):
        assert log_in(client, staff.username, "wrong", url).status_code == 200  # the admin's own form
    response = log_in(client, staff.username, PASSWORD, url)
    assert response.status_code == 429
    assert LOGIN_MESSAGE in response.content.decode()


@override_settings(RATE_LIMIT_LOGIN_FAILURES="off", RATE_LIMIT_LOGIN_FAILURES_PER_IP="off")
def test_log_in_limits_can_be_turned_off():
    user = a_user()
    client = Client(REMOTE_ADDR=an_address())
    for _ in range(15):
        log_in(client, user.username, "wrong")
    assert log_in(client, user.username, PASSWORD).status_code == 302


# --- moves ---------------------------------------------------------------------------------------


@override_settings(RATE_LIMIT_MOVES="3/m")
def test_moves_over_the_limit_get_the_board_a_message_and_429_and_change_nothing():
    game, alice, bob = two_players()
    client = Client()
    client.force_login(alice)
    url = reverse("act", args=[game.pk])
    for _ in range(3):  # stale or not, every POST counts
        assert client.post(url, {"version": "0", "type": "go"}, headers=HTMX).status_code == 409
    before = snapshot(game)
    cut = {"version": game.version, "type": "cut_for_deal", "position": "3"}
    response = client.post(url, cut, headers=HTMX)
    assert response.status_code == 429
    html = response.content.decode()
    assert board_version(html) == game.version and MOVE_MESSAGE in html
    assert snapshot(game) == before
    # Without JavaScript: back to the board, with the message.
    response = client.post(url, cut, follow=True)
    assert MOVE_MESSAGE in response.content.decode()
    assert snapshot(game) == before
    # The other player is not slowed down by Alice.
    bob_client = Client()
    bob_client.force_login(bob)
    response = bob_client.post(url, cut, headers=HTMX)
    assert response.status_code == 200


def test_a_quick_player_never_meets_the_default_move_limit():
    """One request every 100 ms for a whole minute (a fast player against the computer) is allowed;
    a script going faster than that is stopped."""
    alice = a_user()
    for _ in range(600):
        ratelimit.check_move(alice)
    with pytest.raises(services.RateLimited):
        ratelimit.check_move(alice)


def test_quick_moves_over_http_are_not_throttled_by_default():
    game, alice, _ = two_players()
    client = Client()
    client.force_login(alice)
    url = reverse("act", args=[game.pk])
    statuses = {client.post(url, {"version": "0", "type": "go"}, headers=HTMX).status_code for _ in range(60)}
    assert statuses == {409}
