"""Two daphne processes, one database, one Redis: a move made on one reaches sockets on the other.

This is the production shape (many processes behind a balancer). Each player posts moves to
"their" process, and each player has a socket open on *both* processes, so every move is pushed
across processes (through the Redis channel layer) as well as within one. Over a whole game, every
socket must receive every board version, in order.
"""

from __future__ import annotations

import random
import statistics

import pytest
from django.conf import settings

from games.play.models import Game
from tests.live.support import (
    BoardSocket,
    HttpPlayer,
    assert_log_is_whole,
    assert_saw_every_version,
    close_all,
    live_daphnes,
    play_one_move,
    session_key,
    two_players,
)
from tests.play.factories import fixed_secrets

MAX_MOVES = 400

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
    pytest.mark.skipif(
        not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL (two processes share them)",
    ),
]


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "live-multiprocess")


def test_every_move_reaches_every_socket_on_both_processes():
    game, alice, bob = two_players()
    sessions = {0: session_key(alice), 1: session_key(bob)}
    rng = random.Random(31)
    with live_daphnes(2) as (one, two):
        assert one.url != two.url
        # Alice plays on process one, Bob on process two.
        players = {0: HttpPlayer(one.url, sessions[0]), 1: HttpPlayer(two.url, sessions[1])}
        sockets = [
            BoardSocket(server.url, game.pk, sessions[seat], name=f"seat {seat} on {where}")
            for seat in (0, 1)
            for server, where in ((one, "one"), (two, "two"))
        ]
        try:
            for socket in sockets:
                socket.wait_for_version(game.version)
            waits: dict[str, list[float]] = {s.name: [] for s in sockets}
            for _ in range(MAX_MOVES):
                if game.status != Game.Status.ACTIVE:
                    break
                for name, seconds in play_one_move(game, players, sockets, rng).items():
                    waits[name].append(seconds)
                game.refresh_from_db()
            else:
                pytest.fail("the game did not end")
            for socket in sockets:
                socket.drain()
                assert_saw_every_version(socket, 1, game.version)
        finally:
            close_all(sockets)

    assert game.status == Game.Status.FINISHED
    assert_log_is_whole(game)
    for name, seconds in waits.items():
        print(
            f"{name}: {len(seconds)} pushes, median {statistics.median(seconds) * 1000:.0f} ms,"
            f" max {max(seconds) * 1000:.0f} ms after the mover's answer"
        )
