"""Presence comes from liveness: a player whose worker is killed (SIGKILL, or SIGTERM) reads as gone
to the other player within the stated time, though nothing told the database they left.

Two daphne processes share the database: Alice asks the first for the table's presence, Bob's
socket is open on the second, and the second is killed."""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.live.support import BoardSocket, HttpPlayer, live_daphnes, session_key, two_players
from tests.play.factories import fixed_secrets

HEARTBEAT, EXPIRES = 1, 4  # seconds, for the servers of this test (the site's defaults: 10 and 30)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.fixture(autouse=True)
def _settings(monkeypatch):
    fixed_secrets(monkeypatch, "live-presence")
    # Read by the spawned servers' settings at start-up.
    monkeypatch.setenv("PRESENCE_HEARTBEAT_SECONDS", str(HEARTBEAT))
    monkeypatch.setenv("PRESENCE_EXPIRES_SECONDS", str(EXPIRES))


def _presence(player: HttpPlayer, game_id: int) -> str:
    status, html = player.get(f"/games/{game_id}/presence/")
    assert status == 200, html[:300]
    return html


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_player_whose_worker_dies_reads_as_gone_within_the_stated_time(how):
    game, alice, bob = two_players()
    with live_daphnes(2) as (one, two):
        alice_http = HttpPlayer(one.url, session_key(alice))
        socket = BoardSocket(two.url, game.pk, session_key(bob), name="bob on two")
        socket.wait_for_version(game.version)
        deadline = time.monotonic() + 10
        while "bob is at the table" not in _presence(alice_http, game.pk):
            assert time.monotonic() < deadline, "bob never showed as at the table"
            time.sleep(0.2)
        time.sleep(HEARTBEAT * 2)  # a beat or two on record
        killed = time.monotonic()
        os.kill(two.process.pid, how)
        while "bob has left the table" not in (html := _presence(alice_http, game.pk)):
            assert time.monotonic() - killed < EXPIRES + HEARTBEAT + 5, html
            time.sleep(0.25)
        assert "bob has left the table" in html
