"""Faults: a server process killed mid-hand, the channel layer gone, many moves at once in one game.

Nothing about a game lives only in a process, and pushes are best effort on top of HTTP answers,
so each fault must leave the players with a working game and the Move log whole (1..n, no gap,
no repeat, replaying to ``Game.state``).
"""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection, connections
from django.test import Client
from websockets.exceptions import ConnectionClosed

from cribsite.asgi import application
from games.engine.game import legal_actions
from games.play import services
from games.play.models import Game, Move
from tests.live.support import (
    WAIT_SECONDS,
    BoardSocket,
    HttpPlayer,
    as_form,
    assert_log_is_whole,
    board_version,
    close_all,
    load,
    next_turn,
    play_one_move,
    session_key,
    two_players,
)
from tests.ops.support import Site, wait_for_other_sessions_to_end
from tests.play.factories import acting_at_once, fixed_secrets, logged_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

HTMX = {"HX-Request": "true"}
MAX_MOVES = 400


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "ops-faults")


# --- a daphne process killed in the middle of a hand --------------------------------------------


def connect(url: str, game: Game, session: str, name: str, timeout: float = WAIT_SECONDS) -> BoardSocket:
    """A socket to ``url``, retried while the server comes back (as the page's ws extension does)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return BoardSocket(url, game.pk, session, name=name)
        except (OSError, ConnectionClosed, TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def recv_until_closed(socket: BoardSocket) -> None:
    with pytest.raises(ConnectionClosed):
        for _ in range(200):
            socket.ws.recv(timeout=WAIT_SECONDS)


@pytest.mark.slow
def test_a_killed_daphne_is_started_again_and_both_players_reconnect_and_finish(
    static_root, server_log, redis_url
):
    game, alice, bob = two_players()
    sessions = {0: session_key(alice), 1: session_key(bob)}
    rng = random.Random(7)
    # With Redis the two players sit on different processes (pushes cross the layer) and only one
    # dies; on the in-memory layer there is one process, and both lose it.
    workers = 2 if redis_url else 1
    with Site(workers, static_root, server_log) as site:
        url = {0: site.urls[0], 1: site.urls[-1]}
        players = {seat: HttpPlayer(url[seat], sessions[seat]) for seat in (0, 1)}
        sockets = {
            seat: BoardSocket(url[seat], game.pk, sessions[seat], name=f"seat {seat}") for seat in (0, 1)
        }
        try:
            for socket in sockets.values():
                socket.wait_for_version(game.version)
            for _ in range(MAX_MOVES):
                state = load(game)
                if state.phase == "play" and len(state.plays) >= 3:
                    break
                play_one_move(game, players, sockets.values(), rng)
            else:
                pytest.fail("never reached the middle of a hand")

            before_kill = game.version
            old_pid = site.kill_worker(site.port)
            dead = [seat for seat in (0, 1) if url[seat] == site.urls[0]]
            for seat in dead:
                recv_until_closed(sockets[seat])
                sockets[seat].close()
            site.wait_restarted(site.port, old_pid)

            for seat in dead:
                sockets[seat] = connect(url[seat], game, sessions[seat], f"seat {seat} again")
                # A reconnected socket gets the current board at once: nothing was lost or made up.
                sockets[seat].wait_for_version(before_kill)
            for socket in sockets.values():
                socket.drain()
                assert socket.versions[-1] == before_kill

            for _ in range(MAX_MOVES):
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:
                    break
                play_one_move(game, players, sockets.values(), rng)
            else:
                pytest.fail("the game did not finish")
        finally:
            close_all(sockets.values())
    assert game.status == Game.Status.FINISHED
    assert_log_is_whole(game)
    assert "Internal Server Error" not in site.log(), site.log()[-3000:]


# --- the channel layer unreachable -----------------------------------------------------------------


def test_moves_commit_and_are_answered_over_http_while_the_channel_layer_is_down(monkeypatch, caplog):
    game, alice, bob = two_players()
    clients = {0: logged_in(alice), 1: logged_in(bob)}
    layer = get_channel_layer()

    async def unreachable(*args, **kwargs):
        raise ConnectionError("the channel layer cannot be reached")

    monkeypatch.setattr(layer, "group_send", unreachable)
    rng = random.Random(3)
    for _ in range(12):
        state = load(game)
        seat, action = next_turn(state, rng)
        seen = game.version
        response = clients[seat].post(
            f"/games/{game.pk}/act/", {"version": seen, **as_form(action)}, headers=HTMX
        )
        assert response.status_code == 200
        assert board_version(response.content.decode()) == seen + 1
    assert_log_is_whole(game)
    assert Move.objects.filter(game=game).count() == 12
    assert "push to game-" in caplog.text  # logged as a warning, never raised to the player

    monkeypatch.undo()
    game.refresh_from_db()
    # The page reconnects (its socket was refused while the layer was down): it gets the board now.
    html = async_to_sync(first_board)(game.pk, session_key(bob))
    assert board_version(html) == game.version


async def first_board(game_id: int, session: str) -> str:
    headers = [
        (b"origin", b"http://localhost"), (b"host", b"localhost"),
        (b"cookie", f"sessionid={session}".encode()),
    ]
    communicator = WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=WAIT_SECONDS)
    assert connected
    try:
        for _ in range(10):
            message = await communicator.receive_from(timeout=WAIT_SECONDS)
            if board_version(message) is not None:
                return message
        raise AssertionError("no board on connect")
    finally:
        await communicator.disconnect(timeout=10)


# --- many moves at once in one game ----------------------------------------------------------------


@dataclass
class Answer:
    status: int  # HTTP status, or 200/409/422 for the service's outcome
    version: int | None = None
    replayed: bool = False  # the same move, made already from that board: answered, not made again

    @property
    def made(self) -> bool:
        return self.status == 200 and not self.replayed


def post_move(client: Client, game_id: int, version: int, form: dict) -> Answer:
    response = client.post(f"/games/{game_id}/act/", {"version": version, **form}, headers=HTMX)
    html = response.content.decode()
    assert response.status_code in (200, 409, 422), (response.status_code, html[:500])
    assert 'id="board"' in html, html[:300]  # every answer is a board, never an error page
    return Answer(response.status_code, board_version(html), response.get("Idempotent-Replayed") == "true")


def call_service(user, game_id: int, version: int, form: dict) -> Answer:
    try:
        outcome = services.game_act(user=user, game_id=game_id, version=version, action=form)
    except services.AlreadyMade:
        return Answer(200, replayed=True)
    except (services.StaleVersion, services.NotAvailable) as exc:
        return Answer(exc.status)
    except services.IllegalMove:
        return Answer(422)
    return Answer(200, outcome.game.version)


class AllAtOnce:
    """Runs callables in ``size`` threads released together by a barrier; each thread closes its own
    database connection when done (every thread has its own, so the moves really meet in the DB)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pool = ThreadPoolExecutor(max_workers=size)
        self.backends: set[int] = set()  # the PostgreSQL backends of the threads' connections

    def run(self, tasks) -> list[Answer]:
        assert len(tasks) == self.size
        barrier = threading.Barrier(self.size)

        def wrapped(task):
            try:
                barrier.wait(timeout=30)
                return task()
            finally:
                if connection.vendor == "postgresql" and connection.connection is not None:
                    self.backends.add(connection.connection.info.backend_pid)
                connections.close_all()

        futures = [self.pool.submit(wrapped, task) for task in tasks]
        return [f.result(timeout=60) for f in futures]

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        wait_for_other_sessions_to_end(pids=self.backends)


@pytest.mark.slow
def test_many_moves_at_once_in_one_game_are_each_applied_once_or_refused_cleanly():
    game, alice, bob = two_players()
    users = {0: alice, 1: bob}
    size = 8
    # One HTTP client per thread (a client is not thread-safe), each logged in as its seat.
    clients = [{seat: logged_in(users[seat]) for seat in (0, 1)} for _ in range(size)]
    crew = AllAtOnce(size)
    rng = random.Random(17)
    rounds = 0
    try:
        while rounds < 40:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            state = services.load_state(game)
            seen, moves_before = game.version, Move.objects.filter(game=game).count()
            tasks = []
            for i in range(size):
                # Mostly the seat(s) due, each thread with its own legal choice; some from the other seat.
                seat = rng.choice(list(state.to_act)) if i % 4 else 1 - min(state.to_act)
                legal = legal_actions(state, seat)
                form = as_form(rng.choice(legal)) if legal else {"type": "go"}
                if i % 2:
                    tasks.append(lambda c=clients[i][seat], f=form, v=seen: post_move(c, game.pk, v, f))
                else:
                    tasks.append(lambda u=users[seat], f=form, v=seen: call_service(u, game.pk, v, f))
            answers = crew.run(tasks)
            applied = [a for a in answers if a.made]
            # Every move was made against version ``seen``: exactly one can win, the others are stale
            # (or illegal for the seat not due), or the very move that won sent again (answered
            # with the board, not made twice), and none is half-applied. Where everyone acts at
            # once (the cut, laying away, "Next hand") one move per seat due may win
            # (services.SIMULTANEOUS_ACTIONS).
            at_once = acting_at_once(state)
            assert 1 <= len(applied) <= (len(state.to_act) if at_once else 1), answers
            assert sorted(a.version for a in applied) == list(range(seen + 1, seen + 1 + len(applied)))
            game.refresh_from_db()
            assert game.version == seen + len(applied)
            assert Move.objects.filter(game=game).count() == moves_before + len(applied)
            rounds += 1
    finally:
        crew.close()
    assert rounds >= 10
    assert_log_is_whole(game)


@pytest.mark.slow
def test_both_players_laying_away_at_once_from_many_tabs_loses_neither_discard():
    """In the discard both seats may act: every refused (stale) one is retried with the new version,
    as the page does with the board in the 409; both discards land exactly once."""
    game, alice, bob = two_players()
    users = {0: alice, 1: bob}
    rng = random.Random(5)
    # Cut for deal first (the cut may need a recut), one seat at a time.
    for _ in range(10):
        state = load(game)
        if state.phase != "cut":
            break
        seat, action = next_turn(state, rng)
        services.game_act(user=users[seat], game_id=game.pk, version=game.version, action=as_form(action))
    state = load(game)
    assert state.phase == "discard"
    forms = {seat: as_form(legal_actions(state, seat)[0]) for seat in (0, 1)}
    size = 8
    clients = [{seat: logged_in(users[seat]) for seat in (0, 1)} for _ in range(size)]

    def keep_trying(i: int) -> list[str]:
        seat = i % 2
        outcomes = []
        for _ in range(20):
            version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
            answer = post_move(clients[i][seat], game.pk, version, forms[seat])
            outcomes.append("made" if answer.made else "replayed" if answer.replayed else str(answer.status))
            # Applied; the same discard made already by another tab; or refused as laid away already.
            if answer.status != 409:
                return outcomes
        raise AssertionError(f"thread {i} never got past stale answers: {outcomes}")

    crew = AllAtOnce(size)
    try:
        results = crew.run([lambda i=i: keep_trying(i) for i in range(size)])
    finally:
        crew.close()
    finals = [outcomes[-1] for outcomes in results]
    assert finals.count("made") == 2, results  # one per seat
    assert set(finals) <= {"made", "replayed", "422"}
    discards = Move.objects.filter(game=game, action__type="discard")
    assert sorted(discards.values_list("seat", flat=True)) == [0, 1]
    assert load(game).phase == "play"
    assert_log_is_whole(game)
