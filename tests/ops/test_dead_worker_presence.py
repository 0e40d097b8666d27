"""A worker killed outright, then Redis restarted: the killed worker's player is seen to leave the
table within ``PRESENCE_EXPIRES_SECONDS`` of its last heartbeat, although the restart took every
heartbeat kept in the cache and the player's row was written moments before.

Production as it runs, times shortened: two daphne workers and a task worker under the supervisor,
a private ``redis-server``; Alice's socket on one worker, Bob's on the other. The task worker runs the
``dead_sockets`` job alone of the schedule. Without it, the row alone would keep Bob at the table for
``PRESENCE_ROW_SECONDS`` (five minutes).
"""

from __future__ import annotations

import time

import pytest

from games.play.models import Connection, ServerProcess
from tests.live.support import BoardSocket, HttpPlayer, session_key, two_players
from tests.ops.support import PrivateRedis, Site
from tests.play.factories import fixed_secrets

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

HEARTBEAT, EXPIRES = 2, 10  # seconds: the site's PRESENCE_HEARTBEAT_SECONDS, PRESENCE_EXPIRES_SECONDS


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "ops-dead-worker")


def wait_for(condition, what: str, site: Site, timeout: float = 30) -> float:
    """Poll ``condition`` until true; when (monotonic) it was."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"no {what} in {timeout} s:\n{site.log()[-3000:]}"
        time.sleep(0.2)
    return time.monotonic()


def test_a_killed_worker_s_player_leaves_the_table_in_time_after_a_redis_restart(static_root, server_log):
    game, alice, bob = two_players()
    redis = PrivateRedis()
    redis.start()
    env = {"REDIS_URL": redis.url, "SCHEDULE_JOBS": "dead_sockets",
           "PRESENCE_HEARTBEAT_SECONDS": str(HEARTBEAT), "PRESENCE_EXPIRES_SECONDS": str(EXPIRES)}
    sockets = []
    try:
        with Site(2, static_root, server_log, env=env) as site:
            alice_view = HttpPlayer(site.urls[0], session_key(alice))
            sockets.append(BoardSocket(site.urls[0], game.pk, alice_view.session, "alice"))
            sockets.append(BoardSocket(site.urls[1], game.pk, session_key(bob), "bob"))
            for socket in sockets:
                socket.wait_for_version(game.version)

            def bob_here() -> bool:
                status, html = alice_view.get(f"/games/{game.pk}/presence/")
                assert status == 200, html[:300]
                return "bob has left the table" not in html

            def both_beating() -> bool:
                return (Connection.objects.filter(game=game, closed_at=None).count() == 2
                        and ServerProcess.objects.count() == 2)

            wait_for(both_beating, "a socket row and a process beat for each worker", site)
            assert bob_here()
            bob_process = Connection.objects.get(game=game, user=bob).process
            last_beat = ServerProcess.objects.get(process=bob_process).beat_at
            site.kill_worker(site.port + 1)
            killed = time.monotonic()
            redis.stop()  # Redis restarts meanwhile: every beat in the cache is gone
            redis.start()
            gone = wait_for(lambda: not bob_here(), "Bob leaving Alice's table", site, timeout=EXPIRES + 20)
            assert gone - killed <= EXPIRES + 2, gone - killed  # the job's period is within the limit
            row = Connection.objects.get(game=game, user=bob)
            # Closed as of the dead process's last beat: that is when Bob was last known at the table.
            assert row.closed_at is not None
            assert abs((row.closed_at - last_beat).total_seconds()) <= HEARTBEAT + 1
            assert not ServerProcess.objects.filter(process=bob_process).exists()
    finally:
        for socket in sockets:
            socket.close()
        redis.stop()
