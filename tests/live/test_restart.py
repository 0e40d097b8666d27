"""A server dies in the middle of a hand: a new one picks up from the database as if nothing happened.

Nothing about a game lives only in a process's memory, so after a restart both players' sockets
reconnect, get the current board at once (the version in the database), and the game finishes;
the Move log has no gap and no repeat.
"""

from __future__ import annotations

import random

import pytest
from websockets.exceptions import ConnectionClosed

from games.play.models import Game, Move
from tests.live.support import (
    WAIT_SECONDS,
    BoardSocket,
    HttpPlayer,
    LiveDaphne,
    assert_log_is_whole,
    assert_saw_every_version,
    close_all,
    load,
    play_one_move,
    session_key,
    two_players,
)
from tests.play.factories import fixed_secrets

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(240)]

MAX_MOVES = 400


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "live-restart")


def connect_both(server: LiveDaphne, game: Game, sessions: dict[int, str]) -> list[BoardSocket]:
    return [BoardSocket(server.url, game.pk, sessions[seat], name=f"seat {seat}") for seat in (0, 1)]


def test_a_restart_in_the_middle_of_a_hand_loses_nothing():
    game, alice, bob = two_players()
    sessions = {0: session_key(alice), 1: session_key(bob)}
    rng = random.Random(21)

    first = LiveDaphne()
    try:
        players = {seat: HttpPlayer(first.url, sessions[seat]) for seat in (0, 1)}
        sockets = connect_both(first, game, sessions)
        for socket in sockets:
            socket.wait_for_version(game.version)
        # Into the middle of the first hand: cut, lay away, three cards on the table.
        for _ in range(MAX_MOVES):
            state = load(game)
            if state.phase == "play" and len(state.plays) >= 3:
                break
            play_one_move(game, players, sockets, rng)
        else:
            pytest.fail("never reached the middle of a hand")
        for socket in sockets:
            assert_saw_every_version(socket, 1, game.version)
    finally:
        first.stop()

    # The old sockets see their server go.
    for socket in sockets:
        with pytest.raises(ConnectionClosed):
            for _ in range(100):
                socket.ws.recv(timeout=WAIT_SECONDS)
    close_all(sockets)

    game.refresh_from_db()
    at_restart = game.version
    moves_at_restart = Move.objects.filter(game=game).count()
    assert moves_at_restart == at_restart - 1  # version 1 is the accept; each move adds one

    second = LiveDaphne()
    try:
        players = {seat: HttpPlayer(second.url, sessions[seat]) for seat in (0, 1)}
        sockets = connect_both(second, game, sessions)
        for socket in sockets:
            # The very first board on the new socket is the one in the database, without asking.
            socket.wait_for_version(at_restart)
            assert socket.versions[0] == at_restart, socket.versions
        state = load(game)
        assert state.phase == "play" and len(state.plays) >= 3  # still mid-hand after the restart
        for _ in range(MAX_MOVES):
            if game.status != Game.Status.ACTIVE:
                break
            play_one_move(game, players, sockets, rng)
            game.refresh_from_db()
        else:
            pytest.fail("the game did not end after the restart")
        for socket in sockets:
            assert_saw_every_version(socket, at_restart, game.version)
        close_all(sockets)
    finally:
        second.stop()

    assert game.status == Game.Status.FINISHED
    seqs = assert_log_is_whole(game)
    assert len(seqs) == game.version - 1 and len(seqs) > moves_at_restart
