"""With the shared cache (Redis) away, the pages that keep drawn parts there (home, the list of
games to watch, a spectator's board) draw their own copy: 200, never a 500, the outage logged once."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError

from games.infra import outages, shared_cache
from tests.play.factories import human_game, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def cache_away(monkeypatch):
    def refused(*args, **kwargs):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for name in ("get", "set", "add"):
        monkeypatch.setattr(shared_cache.cache, name, refused)
    yield
    outages.cache.delivered()  # the next test starts with the cache reached


def test_home_watch_and_a_spectator_board_are_drawn_with_the_cache_away(cache_away, caplog):
    game = human_game(make_user("alice"), make_user("bob"))
    client = Client()
    with caplog.at_level(logging.WARNING, logger="games.infra.outages"):
        for path in ("/", "/watch/", f"/games/{game.pk}/watch/", "/", "/watch/"):
            response = client.get(path)
            assert response.status_code == 200, path
    assert "alice" in client.get("/watch/").content.decode()
    said = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("cache unreachable"), said
