"""Helpers for the live-play tests: two people, their sockets, a tiny HTTP client, live daphnes.

Everything here talks to 127.0.0.1 only, and every wait has a bound in time.
"""

from __future__ import annotations

import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from contextlib import contextmanager, suppress
from functools import partial

from django.test import Client
from django.utils.crypto import get_random_string

from games.engine.actions import Action, Count, action_to_dict
from games.engine.game import GameState, legal_actions
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game, Move
from tests.play.factories import human_game, make_user, replay

HOST = "127.0.0.1"
WAIT_SECONDS = 15.0  # the longest any one push, response or server start may take
SHORT_GAME = HouseRules(target=61)

_BOARD_VERSION = re.compile(r'<div id="board"[^>]*\bdata-version="(\d+)"')


def board_version(message: str) -> int | None:
    """The version of the ``#board`` a message carries, or None (presence, chat, lobby…)."""
    match = _BOARD_VERSION.search(message)
    return int(match.group(1)) if match else None


def two_players(rules: HouseRules = SHORT_GAME, names: tuple[str, str] = ("alice", "bob")):
    """Alice seeks (seat 0), Bob accepts (seat 1): an active game in the cut for deal."""
    alice, bob = make_user(names[0]), make_user(names[1])
    return human_game(alice, bob, rules=rules), alice, bob


def session_key(user) -> str:
    """A session stored in the database (which every server process shares) for ``user``."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def load(game: Game) -> GameState:
    game.refresh_from_db()
    return services.load_state(game)


# --- choosing moves -----------------------------------------------------------------------------


def choose(state: GameState, seat: int, rng: random.Random) -> Action:
    """A legal action for ``seat``: random, but a manual count is mostly the truth (games end)."""
    legal = legal_actions(state, seat)
    assert legal, f"seat {seat} has nothing to do in phase {state.phase}"
    counts = [a for a in legal if isinstance(a, Count)]
    if counts:
        worth = state.show[-1].score.total
        return Count(seat, worth if rng.random() < 0.8 else rng.randint(max(0, worth - 4), worth + 4))
    return rng.choice(legal)


def next_turn(state: GameState, rng: random.Random) -> tuple[int, Action]:
    """Who acts next (the lowest seat of those due, so runs repeat) and what they do."""
    seat = min(state.to_act)
    return seat, choose(state, seat, rng)


def as_form(action: Action) -> dict:
    """An action as the board's forms post it (no seat: the server takes it from the session)."""
    data = action_to_dict(action)
    del data["seat"]
    return data


# --- the Move log -------------------------------------------------------------------------------


def assert_log_is_whole(game: Game) -> list[int]:
    """The Move log runs 1..n without a gap or a repeat, and replaying it rebuilds ``Game.state``."""
    game.refresh_from_db()
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)), f"gaps or repeats in the Move log: {seqs}"
    assert replay(game).to_dict() == game.state, "replaying the Move log does not give Game.state"
    return seqs


# --- a logged-in HTTP client for a live server ----------------------------------------------------

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never a proxy


class HttpPlayer:
    """Posts to a live server as one user, the way htmx does: session cookie, CSRF header, HX-Request.

    The CSRF cookie is ours to choose (Django accepts any well-formed secret and compares the header
    with it), so no page has to be fetched first.
    """

    def __init__(self, base_url: str, session: str) -> None:
        self.base_url = base_url
        self.session = session
        self.csrf = get_random_string(32)

    def post(self, path: str, data: dict) -> tuple[int, str]:
        request = urllib.request.Request(
            self.base_url + path,
            data=urllib.parse.urlencode(data, doseq=True).encode(),
            method="POST",
            headers={
                "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}",
                "X-CSRFToken": self.csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        try:
            with _OPENER.open(request, timeout=WAIT_SECONDS) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def get(self, path: str) -> tuple[int, str]:
        request = urllib.request.Request(self.base_url + path, headers={
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}", "HX-Request": "true"})
        try:
            with _OPENER.open(request, timeout=WAIT_SECONDS) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def act(self, game_id: int, version: int, action: Action | dict) -> tuple[int, str]:
        form = as_form(action) if not isinstance(action, dict) else action
        return self.post(f"/games/{game_id}/act/", {"version": version, **form})


# --- websocket clients --------------------------------------------------------------------------


class BoardSocket:
    """A player's game socket on a live server (the ``websockets`` sync client, Origin and cookie set).

    Every message is kept; ``versions`` lists the board versions in the order they arrived.
    """

    def __init__(self, base_url: str, game_id: int, session: str, name: str = "") -> None:
        from websockets.sync.client import connect

        ws_url = base_url.replace("http://", "ws://", 1) + f"/ws/game/{game_id}/"
        self.name = name or ws_url
        self.messages: list[str] = []
        self.versions: list[int] = []
        self.ws = connect(
            ws_url,
            additional_headers={"Cookie": f"sessionid={session}"},
            origin=base_url,
            proxy=None,
            open_timeout=WAIT_SECONDS,
            max_queue=512,
            legacy=True,  # a plain connection (websockets 17 warns without the flag)
        )

    def wait_for_version(self, version: int, timeout: float = WAIT_SECONDS) -> str:
        """Read until a board of ``version`` (or newer) arrives; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no board of version {version} (saw {self.versions[-5:]})")
            try:
                message = self.ws.recv(timeout=left)
            except TimeoutError:
                continue
            assert isinstance(message, str)
            self.messages.append(message)
            seen = board_version(message)
            if seen is not None:
                self.versions.append(seen)
                if seen >= version:
                    return message

    def drain(self, quiet: float = 0.3) -> None:
        """Read whatever else arrives until the socket has been quiet for ``quiet`` seconds."""
        while True:
            try:
                message = self.ws.recv(timeout=quiet)
            except TimeoutError:
                return
            self.messages.append(message)
            seen = board_version(message)
            if seen is not None:
                self.versions.append(seen)

    def close(self) -> None:
        self.ws.close()


def assert_saw_every_version(socket: BoardSocket, first: int, last: int) -> None:
    """Each version from ``first`` to ``last`` reached the socket, in order (never a step back)."""
    missing = sorted(set(range(first, last + 1)) - set(socket.versions))
    assert not missing, f"{socket.name}: versions {missing} never arrived (got {socket.versions})"
    assert socket.versions == sorted(socket.versions), f"{socket.name}: out of order: {socket.versions}"


def play_one_move(
    game: Game, players: dict[int, HttpPlayer], sockets: Iterable[BoardSocket], rng: random.Random
) -> dict[str, float]:
    """The next player posts a move to their server; every socket must then get the new board.

    Returns how long each socket waited after the POST's answer (seconds, by socket name).
    """
    state = load(game)
    seat, action = next_turn(state, rng)
    status, html = players[seat].act(game.pk, game.version, action)
    assert status == 200, f"{action} was answered {status}: {html[:300]}"
    new = game.version + 1
    assert board_version(html) == new
    answered = time.monotonic()
    waits = {}
    for socket in sockets:
        socket.wait_for_version(new)
        waits[socket.name] = time.monotonic() - answered
    return waits


# --- live servers -------------------------------------------------------------------------------


class LiveDaphne:
    """A daphne process serving the project against the test database, on a free port.

    ``multiprocessing`` uses spawn in this suite (tests/conftest.py), so the child reads the same
    environment (DATABASE_URL, REDIS_URL, CHANNEL_PREFIX, TEST_DB_NAME) and settings as the tests.
    """

    def __init__(self) -> None:
        from channels.testing.live import make_application, set_database_connection
        from daphne.testing import DaphneProcess
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        application = partial(make_application, static_wrapper=ASGIStaticFilesHandler)
        self.process = DaphneProcess(HOST, application, setup=set_database_connection)
        self.process.start()
        if not self.process.ready.wait(timeout=60):
            self.stop()
            raise RuntimeError("live daphne did not start")
        self.url = f"http://{HOST}:{self.process.port.value}"

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=10)
        if self.process.is_alive():  # pragma: no cover - a server that ignores SIGTERM
            self.process.kill()
            self.process.join(timeout=10)


@contextmanager
def live_daphnes(count: int = 1):
    servers: list[LiveDaphne] = []
    try:
        for _ in range(count):
            servers.append(LiveDaphne())
        yield servers
    finally:
        for server in servers:
            server.stop()


def close_all(sockets: Iterable[BoardSocket]) -> None:
    for socket in sockets:
        with suppress(Exception):  # the server may be gone already
            socket.close()
