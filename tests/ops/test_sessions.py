"""Sessions read from the cache and kept in the database (``games.infra.sessions``), with and without a
cache that answers. With ``REDIS_URL`` set the settings use this store for the whole suite."""

from __future__ import annotations

import logging

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.infra import outages, sessions
from tests.ops.support import closed_port
from tests.play.factories import human_game, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-phrase-42"


@pytest.fixture
def cached_sessions(settings):
    settings.SESSION_ENGINE = "games.infra.sessions"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def unreachable_cache(settings, cached_sessions):
    """The shared cache is Redis on a port where nothing listens: every cache call fails."""
    settings.CACHES = {"default": {"BACKEND": "games.infra.cache.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{closed_port()}/0"}}
    outages.cache.down_since = None  # each test's outage begins in it, and is logged once


def _session_queries(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "django_session" in q["sql"]]


def test_a_session_is_read_from_the_cache_not_the_database(cached_sessions, alice, bob):
    game = human_game(alice, bob)
    client = Client()
    client.force_login(alice)
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("game", args=[game.pk])).status_code == 200
    assert _session_queries(queries) == []


def test_a_session_missing_from_the_cache_is_read_from_the_database_and_cached(cached_sessions, alice, bob):
    game = human_game(alice, bob)
    client = Client()
    client.force_login(alice)
    key = client.cookies["sessionid"].value
    caches["default"].delete(sessions.SessionStore.cache_key_prefix + key)  # evicted, or a restart
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("game", args=[game.pk])).status_code == 200
    assert len(_session_queries(queries)) == 1
    assert caches["default"].get(sessions.SessionStore.cache_key_prefix + key) is not None


def test_the_cached_copy_lives_minutes_not_the_sessions_weeks(cached_sessions, alice, monkeypatch):
    timeouts = []
    cache = caches["default"]
    real_set = cache.set
    monkeypatch.setattr(cache, "set", lambda key, value, timeout=None, **kw: (
        timeouts.append(timeout), real_set(key, value, timeout, **kw)))
    Client().force_login(alice)
    assert timeouts and all(0 < t <= sessions.CACHE_SECONDS for t in timeouts)


def test_logging_out_ends_the_session_in_both_places(cached_sessions, alice):
    client = Client()
    client.force_login(alice)
    key = client.cookies["sessionid"].value
    assert client.post(reverse("logout")).status_code in (200, 302)
    assert not Session.objects.filter(session_key=key).exists()
    assert caches["default"].get(sessions.SessionStore.cache_key_prefix + key) is None
    assert client.get(reverse("lobby")).status_code == 302  # back to the log-in page


def test_without_the_cache_players_log_in_play_and_log_out(unreachable_cache, alice, bob, caplog):
    user = make_user("carol")
    user.set_password(PASSWORD)
    user.save()
    client = Client()
    with caplog.at_level(logging.WARNING):
        response = client.post(reverse("login"), {"username": "carol", "password": PASSWORD})
        assert response.status_code == 302, response.content[:300]
        assert client.get(reverse("lobby")).status_code == 200  # the session was read back
        game = human_game(alice, bob)
        player = Client(headers={"HX-Request": "true"})
        player.force_login(alice)
        answer = player.post(reverse("act", args=[game.pk]),
                             {"type": "cut_for_deal", "position": 4, "version": game.version})
        assert answer.status_code == 200
        key = client.cookies["sessionid"].value
        assert client.post(reverse("logout")).status_code in (200, 302)
    assert not Session.objects.filter(session_key=key).exists()
    assert client.get(reverse("lobby")).status_code == 302
    # The outage is logged once, by whichever part met it first (the log-in's rate limit), then not
    # again for each session read and write.
    warnings = [r for r in caplog.records if "cache" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].getMessage().startswith("cache unreachable"), warnings
    assert warnings[0].exc_info is None
