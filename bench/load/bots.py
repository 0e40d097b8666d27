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
from websockets.exceptions import ConnectionClosed
from yarl import URL

from bench.load.board import CSRF_INPUT, board_version, decide, phase

PASSWORD = "bench-Long-pass-phrase-7"
THINK_SECONDS = (0.5, 2.0)
HTTP_TIMEOUT = 30.0
SOCKET_OPEN_TIMEOUT = 30.0
STALL_SECONDS = 20.0  # a bot that waits this long for a board it can act on is stuck: an error


class BotError(Exception):
    """Something a player would see as broken: counted as an error of ``kind``."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind


# --- one level's bookkeeping -------------------------------------------------------------------------


@dataclass
class Level:
    games: int
    duration: float
    think: tuple[float, float]
    start: float = float("inf")  # the measured window: [start, end)
    end: float = float("inf")
    stop: asyncio.Event = field(default_factory=asyncio.Event)
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

    def measuring(self, t: float) -> bool:
        return self.start <= t < self.end

    def error(self, exc: BaseException | str) -> None:
        if isinstance(exc, BotError):
            kind = exc.kind
        else:
            kind = type(exc).__name__ if isinstance(exc, BaseException) else exc
        self.errors[kind] += 1
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
        ws_url = self.base_url.replace("http://", "ws://", 1) + f"/ws/game/{game_id}/?tab={self.tab}"
        self.ws = await ws_connect(
            ws_url,
            origin=self.base_url,  # AllowedHostsOriginValidator refuses a socket without one
            additional_headers={"Cookie": f"sessionid={self.cookie('sessionid')}"},
            open_timeout=SOCKET_OPEN_TIMEOUT,
            compression=None,
            max_size=2**22,
            proxy=None,
        )
        self.reader = asyncio.create_task(self._read(level))

    async def _read(self, level: Level) -> None:
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
        except ConnectionClosed as exc:
            if not level.stop.is_set() and self.game_id:
                level.error(BotError("socket_closed", f"{self.username}: {exc}"))
            self.changed.set()

    async def close_socket(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
        self.ws = self.reader = None

    def offer(self, html: str, version: int | None) -> None:
        """A board from the socket or from an answer: keep it if it is newer than the one we hold."""
        if version is not None and version > self.version:
            self.board, self.version = html, version
            self.changed.set()

    # playing -------------------------------------------------------------------------------------

    async def play(self, level: Level) -> bool:
        """Play until the game is over (True) or the level stops (False)."""
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
        sent = time.perf_counter()
        try:
            status, html = await self.post(
                f"/games/{self.game_id}/act/", [("version", str(self.version)), *fields]
            )
        except (aiohttp.ClientError, TimeoutError) as exc:
            level.error(BotError("http_" + type(exc).__name__, f"{self.username} {fields[0][1]}"))
            await self._resync()  # the move may have committed: our socket was spared its push
            await asyncio.sleep(1)
            return
        version = board_version(html)
        if status == 200 and version is not None:
            self.offer(html, version)
            if level.measuring(sent):
                level.moves += 1
                level.answers.append((time.perf_counter() - sent) * 1000)
                self.sent.append((sent, version, time.perf_counter()))
        elif status == 409:  # the board changed under this move: the answer is the new board
            level.stale += 1
            self.offer(html, version)
        else:
            level.error(BotError(f"act_{status}", f"{self.username} {fields}: {html[:200]}"))
            if status >= 500:
                await self._resync()
            await asyncio.sleep(1)

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
