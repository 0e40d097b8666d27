"""Redis drops the channel layer's subscription under a live game: pushes flow again by themselves.

The pub/sub channel layer keeps one subscribed connection per worker. Redis closing it (a restart,
a failover, an operator's CLIENT KILL) must not leave open pages waiting: redis-py reconnects and
subscribes again, and every later move reaches every socket.
"""

from __future__ import annotations

import random
import time

import pytest
import redis
from django.conf import settings

from tests.live.support import (
    BoardSocket,
    HttpPlayer,
    assert_saw_every_version,
    close_all,
    live_daphnes,
    play_one_move,
    session_key,
    two_players,
)
from tests.play.factories import fixed_secrets

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (the Redis channel layer)"),
]


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "live-layer-reconnect")


def _kill_layer_subscriptions() -> int:
    """Close the layer's subscribed connections (this run's only: they carry its prefix's name)."""
    name = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["client_name"]
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        ids = [c["id"] for c in client.client_list(_type="pubsub") if c.get("name") == name]
        for client_id in ids:
            client.client_kill_filter(_id=client_id)
        return len(ids)
    finally:
        client.close()


def test_pushes_flow_again_after_redis_drops_the_layers_subscription():
    game, alice, bob = two_players()
    sessions = {0: session_key(alice), 1: session_key(bob)}
    rng = random.Random(5)
    with live_daphnes(1) as (server,):
        players = {seat: HttpPlayer(server.url, sessions[seat]) for seat in (0, 1)}
        sockets = [BoardSocket(server.url, game.pk, sessions[seat], name=f"seat {seat}") for seat in (0, 1)]
        try:
            for socket in sockets:
                socket.wait_for_version(game.version)
            for _ in range(3):
                play_one_move(game, players, sockets, rng)
                game.refresh_from_db()
            assert _kill_layer_subscriptions() >= 1
            time.sleep(1)  # the subscription comes back at the layer's next read, a tenth of a second
            before = game.version
            for _ in range(5):
                play_one_move(game, players, sockets, rng)
                game.refresh_from_db()
            for socket in sockets:
                socket.drain()
                assert_saw_every_version(socket, before + 1, game.version)
        finally:
            close_all(sockets)
