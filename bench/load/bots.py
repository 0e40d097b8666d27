"""A bot: one logged-in player with an HTTP session and, in a game, a socket; and a level's bookkeeping."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import random
import secrets
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from yarl import URL

from bench.load.board import CSRF_INPUT, board_version, decide, phase

PASSWORD = "bench-Long-pass-phrase-7"
THINK_SECONDS = (0.5, 2.0)
# --pace: "quick" (the default) plays fast enough to find what saturates the servers; "human" is a
# person's pace, where a game makes about 0.2 moves a second and what an open table costs while
# nobody moves (heartbeats, presence) weighs as much as the moves.
PACES = {"quick": THINK_SECONDS, "human": (2.0, 8.0)}
HTTP_TIMEOUT = 30.0
SOCKET_OPEN_TIMEOUT = 30.0
STALL_SECONDS = 20.0  # a bot that waits this long for a board it can act on is stuck: an error
# A soak's bots reconnect a dropped socket as a page does: after a pause that doubles (with jitter)
# from the first to the most, and on until the soak ends; still trying after RECONNECT_SECONDS is an
# error (a worker that did not come back), counted once.
RECONNECT_FIRST, RECONNECT_MOST, RECONNECT_SECONDS = 0.5, 8.0, 60.0


class BotError(Exception):
    """Something a player would see as broken: counted as an error of ``kind``."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind


# --- one level's bookkeeping -------------------------------------------------------------------------


def _set(event: asyncio.Event) -> asyncio.Event:
    event.set()
    return event


@dataclass
class Level:
    games: int
    duration: float
    think: tuple[float, float]
    start: float = float("inf")  # the measured window: [start, end)
    end: float = float("inf")
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    # Cleared, the bots hold their games open without moving (a level's idle window); set, they play.
    go: asyncio.Event = field(default_factory=lambda: _set(asyncio.Event()))
    spread: float = 0.0  # after ``go``, each game begins at a random moment within this many seconds
    moves: int = 0
    stale: int = 0
    games_finished: int = 0
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each of ``latencies``' moves was sent
    answers: list[float] = field(default_factory=list)  # a POST to its own answer (the mover's board)
    echo: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    traced: list[tuple] | None = None  # with --stages: each move's own times (see ``traced``)
    # perf_counter() + wall_offset is the wall clock the servers' stage marks are in
    wall_offset: float = field(default_factory=lambda: time.time() - time.perf_counter())
    # A soak's (None or off in a level): bots reconnect dropped sockets; every game started; each move
    # the server accepted, (sent, game, version made, player, type), wherever it was sent; each move
    # whose answer never came, (sent, game, version it was sent from, player, type), which may or may
    # not have been made; and each error with its time, (when, kind).
    reconnect: bool = False
    game_ids: set[int] | None = None
    accepted: list[tuple[float, int, int, str, str]] | None = None
    in_doubt: list[tuple[float, int, int, str, str]] | None = None
    error_times: list[tuple[float, str]] | None = None

    def measuring(self, t: float) -> bool:
        return self.start <= t < self.end

    def error(self, exc: BaseException | str) -> None:
        if isinstance(exc, BotError):
            kind = exc.kind
        else:
            kind = type(exc).__name__ if isinstance(exc, BaseException) else exc
        self.errors[kind] += 1
        if self.error_times is not None:
            self.error_times.append((time.perf_counter(), kind))
        if len(self.error_samples) < 10:
            self.error_samples.append(str(exc)[:300])


# --- a bot: one logged-in player with an HTTP session and, in a game, a socket -----------------------


class Bot:
    def __init__(self, index: int, base_url: str) -> None:
        self.username = f"bot{index:04d}"
        self.base_url = base_url
        self.url = URL(base_url)
        self.session: aiohttp.ClientSession | None = None
        self.rng = random.Random(index)
        self.csrf = ""  # the CSRF cookie's value, once read
        self._reset_game(0)

    def _reset_game(self, game_id: int) -> None:
        self.game_id = game_id
        self.board = ""
        self.version = -1
        self.changed = asyncio.Event()
        self.arrivals: list[tuple[int, float]] = []  # (version, when) each time the socket saw a newer one
        # (when, version made, when answered) for each accepted move in the window
        self.sent: list[tuple[float, int, float]] = []
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.connected = asyncio.Event()  # a soak's: the socket is open (cleared while it reconnects)
        self.tab = secrets.token_urlsafe(12) if game_id else ""  # a board page's id, one per game

    # HTTP ---------------------------------------------------------------------------------------------

    def cookie(self, name: str) -> str:
        morsel = self.session.cookie_jar.filter_cookies(self.url).get(name)
        return morsel.value if morsel else ""

    async def login(self) -> None:
        self.session = aiohttp.ClientSession(
            base_url=self.base_url,
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # unsafe: keep cookies from an IP address
            timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT),
            connector=aiohttp.TCPConnector(limit=4),
        )
        async with self.session.get("/accounts/login/") as response:
            html = await response.text()
        token = CSRF_INPUT.search(html)
        if response.status != 200 or not token:
            raise BotError("login_page", f"{response.status}")
        form = {"username": self.username, "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)}
        async with self.session.post("/accounts/login/", data=form, allow_redirects=False) as response:
            if response.status != 302:
                raise BotError("login", f"{self.username}: {response.status}")

    async def post(self, path: str, data: list | dict, *, htmx: bool = True) -> tuple[int, str]:
        # The bots share the server's two cores: aiohttp's form encoder and a cookie-jar lookup
        # for the CSRF token on every move were a sixth of their CPU. The body is encoded here,
        # and the token read once (Django changes it at log-in; a 403 reads it again).
        if not self.csrf:
            self.csrf = self.cookie("csrftoken")
        headers = {"X-CSRFToken": self.csrf, "Content-Type": "application/x-www-form-urlencoded"}
        if htmx:
            headers["HX-Request"] = "true"
            if self.tab:  # as board.html's hx-headers: our socket is spared the board we are answered
                headers["X-Board-Tab"] = self.tab
        body = urllib.parse.urlencode(data).encode()
        async with self.session.post(path, data=body, headers=headers, allow_redirects=False) as response:
            if response.status == 403:
                self.csrf = ""
            return response.status, await response.text(encoding="utf-8")

    async def get(self, path: str) -> tuple[int, str]:
        async with self.session.get(path, allow_redirects=False) as response:
            return response.status, await response.text()

    async def close(self) -> None:
        await self.close_socket()
        if self.session is not None:
            await self.session.close()

    # the game socket -----------------------------------------------------------------------------

    async def open_socket(self, game_id: int, level: Level) -> None:
        self._reset_game(game_id)
        if level.reconnect:
            # In a soak the worker may be restarting: keep trying, as a page that loads its socket would.
            if not await self._reconnect(level, pause=False):
                return  # the soak ended first: play() stops at once
        else:
            self.ws = await self._connect()
        self.reader = asyncio.create_task(self._read(level))

    async def _connect(self):
        ws_url = self.base_url.replace("http://", "ws://", 1) + f"/ws/game/{self.game_id}/?tab={self.tab}"
        return await ws_connect(
            ws_url,
            origin=self.base_url,  # AllowedHostsOriginValidator refuses a socket without one
            additional_headers={"Cookie": f"sessionid={self.cookie('sessionid')}"},
            open_timeout=SOCKET_OPEN_TIMEOUT,
            compression=None,
            max_size=2**22,
            proxy=None,
        )

    async def _read(self, level: Level) -> None:
        while True:
            try:
                async for message in self.ws:
                    when = time.perf_counter()
                    if not isinstance(message, str):
                        continue
                    version = board_version(message)
                    if version is None:
                        continue  # presence, chat, announcements
                    if not self.arrivals or version > self.arrivals[-1][0]:
                        self.arrivals.append((version, when))
                    self.offer(message, version)
                if level.reconnect and not level.stop.is_set():
                    # A worker stopping gracefully closes its sockets cleanly: still a drop for the page.
                    level.error(BotError("socket_closed", f"{self.username}: closed by the server"))
            except ConnectionClosed as exc:
                if not level.stop.is_set() and self.game_id:
                    level.error(BotError("socket_closed", f"{self.username}: {exc}"))
                self.changed.set()
            if not level.reconnect or level.stop.is_set() or not await self._reconnect(level, pause=True):
                return

    async def _reconnect(self, level: Level, *, pause: bool) -> bool:
        """Open the game's socket (again): the server sends the current board on every connect, which
        is how a page that lost its socket catches up. False if the soak ended first."""
        self.connected.clear()
        delay, slow = RECONNECT_FIRST, time.monotonic() + RECONNECT_SECONDS
        while not level.stop.is_set():  # bounded: the soak stops
            if slow is not None and time.monotonic() > slow:
                level.error(BotError("reconnect_slow", f"{self.username} game {self.game_id}"))
                slow = None
            if pause:
                await asyncio.sleep(self.rng.uniform(delay / 2, delay))
                delay = min(2 * delay, RECONNECT_MOST)
            pause = True
            try:
                self.ws = await self._connect()
            except (OSError, TimeoutError, InvalidHandshake):
                continue
            self.connected.set()
            return True
        return False

    async def close_socket(self) -> None:
        # The reader first: a soak's reader would take our own close for a drop and reconnect.
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        self.ws = self.reader = None

    def offer(self, html: str, version: int | None) -> None:
        """A board from the socket or from an answer: keep it if it is newer than the one we hold."""
        if version is not None and version > self.version:
            self.board, self.version = html, version
            self.changed.set()

    # playing -------------------------------------------------------------------------------------

    async def play(self, level: Level) -> bool:
        """Play until the game is over (True) or the level stops (False)."""
        await level.go.wait()
        while not level.stop.is_set():
            if phase(self.board) == "match_over":
                return True
            fields = decide(self.board, self.rng)
            if fields is None:
                self.changed.clear()
                if decide(self.board, self.rng) is None and phase(self.board) != "match_over":
                    await self._wait_for_a_board(level)
                continue
            await asyncio.sleep(self.rng.uniform(*level.think))
            fields = decide(self.board, self.rng)  # the board may have changed while we thought
            if fields is None or level.stop.is_set():
                continue
            await self._move(fields, level)
        return False

    async def _wait_for_a_board(self, level: Level) -> None:
        waiter = asyncio.create_task(self.changed.wait())
        stopper = asyncio.create_task(level.stop.wait())
        done, pending = await asyncio.wait({waiter, stopper}, timeout=STALL_SECONDS,
                                           return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if not done:
            level.error(BotError("stalled", f"{self.username} game {self.game_id} v{self.version}"))
            await self._resync()

    async def _move(self, fields: list[tuple[str, str]], level: Level) -> None:
        sent, seen = time.perf_counter(), self.version
        try:
            status, html = await self.post(
                f"/games/{self.game_id}/act/", [("version", str(self.version)), *fields]
            )
        except asyncio.CancelledError:
            self._record(level.in_doubt, sent, seen, fields)  # a wind-down that gave up: maybe made
            raise
        except (aiohttp.ClientError, TimeoutError) as exc:
            level.error(BotError("http_" + type(exc).__name__, f"{self.username} {fields[0][1]}"))
            self._record(level.in_doubt, sent, seen, fields)
            await self._resync()  # the move may have committed: our socket was spared its push
            await asyncio.sleep(1)
            await self._socket_back(level)
            return
        version = board_version(html)
        if status == 200 and version is not None:
            self.offer(html, version)
            self._record(level.accepted, sent, version, fields)
            if level.measuring(sent):
                level.moves += 1
                level.answers.append((time.perf_counter() - sent) * 1000)
                self.sent.append((sent, version, time.perf_counter()))
        elif status == 409:  # the board changed under this move: the answer is the new board
            level.stale += 1
            self.offer(html, version)
        else:
            level.error(BotError(f"act_{status}", f"{self.username} {fields}: {html[:200]}"))
            self._record(level.in_doubt, sent, seen, fields)
            if status >= 500:
                await self._resync()
            await asyncio.sleep(1)

    def _record(self, log: list | None, sent: float, version: int, fields: list[tuple[str, str]]) -> None:
        if log is not None:
            log.append((sent, self.game_id, version, self.username, fields[0][1]))

    async def _socket_back(self, level: Level) -> None:
        """In a soak, after a request that failed: wait until the socket is back (its worker was
        probably restarting), as a player waits for the page to say it is connected again."""
        if not level.reconnect or self.connected.is_set() or self.ws is None:
            return
        waiter = asyncio.create_task(self.connected.wait())
        stopper = asyncio.create_task(level.stop.wait())
        _, pending = await asyncio.wait({waiter, stopper}, timeout=RECONNECT_SECONDS,
                                        return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()

    async def _resync(self) -> None:
        """Ask the socket for the current board, as a page refetches it when an answer is lost."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.send("sync")


def traced(sender: Bot, receiver: Bot, offset: float) -> list[tuple[int, int, float, float, float | None]]:
    """``sender``'s moves for ``--stages``: (game, version, POST written, answer read, the board of
    exactly that version read by ``receiver``'s socket), in wall-clock ms."""
    arrived = dict(receiver.arrivals)
    return [(sender.game_id, version, (sent + offset) * 1000, (answered + offset) * 1000,
             (arrived[version] + offset) * 1000 if version in arrived else None)
            for sent, version, answered in sender.sent]


def latencies(sender: Bot, receiver: Bot) -> tuple[list[tuple[float, float]], int]:
    """For each of ``sender``'s accepted POSTs, when it was sent and the milliseconds until
    ``receiver``'s socket had that version (or a newer one); and how many never arrived."""
    versions = [v for v, _ in receiver.arrivals]
    out, missing = [], 0
    for sent, version, _ in sender.sent:
        i = bisect.bisect_left(versions, version)
        if i == len(versions):
            missing += 1
        else:
            out.append((sent, (receiver.arrivals[i][1] - sent) * 1000))
    return out, missing


def resolved(sender: Bot, receiver: Bot) -> list[tuple[float, float]]:
    """``latencies`` of the moves whose push has come already, taken out of ``sender.sent``: a soak
    reports every minute while its games go on (the rest are counted when the game ends)."""
    versions = [v for v, _ in receiver.arrivals]
    out, waiting = [], []
    for entry in sender.sent:
        i = bisect.bisect_left(versions, entry[1])
        if i == len(versions):
            waiting.append(entry)
        else:
            out.append((entry[0], (receiver.arrivals[i][1] - entry[0]) * 1000))
    sender.sent[:] = waiting
    return out
