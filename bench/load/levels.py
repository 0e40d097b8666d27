"""Running a level: pairs of bots start games and play them, echo clients time the floor."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import time
from pathlib import Path

import aiohttp
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from bench import stages
from bench.load import procfs
from bench.load.board import ACCEPT_FORM
from bench.load.bots import (
    HTTP_TIMEOUT,
    PACES,
    SOCKET_OPEN_TIMEOUT,
    Bot,
    BotError,
    Level,
    latencies,
    traced,
)
from bench.load.figures import capacity, over_echo, per_second, percentiles
from bench.load.servers import Servers, database_name

LEVELS = (50, 100, 200, 400)
GRACE_SECONDS = 5.0  # after a level, how long late pushes may still arrive
SETUP_SECONDS = 45.0  # the longest a level waits for all its games to start (then it measures anyway)
WARMUP_SECONDS = 10.0  # after the set-up, play this long before measuring (--warmup)
WIND_DOWN_SECONDS = 20.0  # after a level, how long bots may take to finish what they were doing
SETUP_CONCURRENCY = 16
IDLE_SECONDS = 30.0  # --pace human's idle window: three heartbeats of every socket
SETTLE_SECONDS = 5.0  # after the set-up, before the idle window: the last sockets' first boards drawn
# After the idle window the games begin over this many seconds (about a deal at a person's pace), as
# tables on a site begin at any moment. Released at once, they moved in step for minutes: at 200
# games the first twelve seconds came at 1.8 times the steady rate of moves, and each later deal's
# simultaneous steps (laying away, the next hand) in waves, which at 600 games queue for seconds.
START_SPREAD_SECONDS = 60.0
ECHO_SOCKETS_PER_SERVER = 4
ECHO_PAUSE = (0.2, 0.4)


async def start_game(a: Bot, b: Bot, target: int, level: Level) -> None:
    """``a`` invites ``b`` through the lobby's seek form; ``b`` accepts from its lobby; both connect."""
    form = {
        "seek-target": str(target), "seek-skunks": "on", "seek-peg_out_zone": "0",
        "seek-match_games": "1", "seek-turn_timer": "0", "seek-opponent": b.username,
    }
    status, html = await a.post("/games/new/seek/", form, htmx=False)
    if status != 302:
        raise BotError(f"seek_{status}", html[:200])
    status, html = await b.get("/lobby/")
    games = [int(g) for g in ACCEPT_FORM.findall(html)]
    if status != 200 or not games:
        raise BotError("no_invitation", f"{b.username} lobby {status}")
    game_id = max(games)
    status, _ = await b.post(f"/games/{game_id}/accept/", {}, htmx=False)
    if status != 302:
        raise BotError(f"accept_{status}")
    if level.game_ids is not None:
        level.game_ids.add(game_id)
    await asyncio.gather(a.open_socket(game_id, level), b.open_socket(game_id, level))


async def run_pair(a: Bot, b: Bot, target: int, level: Level, ready: asyncio.Semaphore,
                   started: list[int]) -> None:
    first = True
    while not level.stop.is_set():
        try:
            if first:
                async with ready:  # bounded set-up concurrency for the first game
                    await start_game(a, b, target, level)
                started.append(1)
                first = False
                if level.spread:
                    await level.go.wait()
                    await asyncio.sleep(random.uniform(0, level.spread))
            else:
                await start_game(a, b, target, level)
            over = await asyncio.gather(a.play(level), b.play(level))
            if all(over):
                level.games_finished += 1
            if level.stop.is_set():
                await asyncio.sleep(GRACE_SECONDS)  # let the last pushes land before counting
        except (BotError, aiohttp.ClientError, TimeoutError, OSError, ConnectionClosed) as exc:
            level.error(exc)
            if first:
                started.append(0)
                first = False
            await asyncio.sleep(2)
        finally:
            given_up = asyncio.current_task().cancelling()  # the wind-down ran out: no grace was had
            for sender, receiver in ((a, b), (b, a)):
                values, missing = latencies(sender, receiver)
                level.sent_at.extend(sent for sent, _ in values)
                level.latencies.extend(ms for _, ms in values)
                if missing and not given_up:
                    level.error(BotError("push_missing", f"{missing} by {sender.username}"))
                if level.traced is not None:
                    level.traced.extend(traced(sender, receiver, level.wall_offset))
                sender.sent.clear()
            await asyncio.gather(a.close_socket(), b.close_socket())


# --- the echo floor ----------------------------------------------------------------------------------


async def echo_client(base_url: str, level: Level | None, count: int | None = None) -> list[float]:
    """Ping the health consumer: while ``level`` runs (recording in its window), or ``count`` times."""
    ws_url = base_url.replace("http://", "ws://", 1) + "/ws/health/"
    rng = random.Random()
    out: list[float] = []
    async with ws_connect(ws_url, origin=base_url, open_timeout=SOCKET_OPEN_TIMEOUT, compression=None,
                          proxy=None) as ws:
        await asyncio.wait_for(ws.recv(), SOCKET_OPEN_TIMEOUT)  # hello
        n = 0
        while (level is not None and not level.stop.is_set()) or (count is not None and n < count):
            sent = time.perf_counter()
            await ws.send('{"type": "ping"}')
            reply = await asyncio.wait_for(ws.recv(), HTTP_TIMEOUT)
            elapsed = (time.perf_counter() - sent) * 1000
            if "pong" not in reply:
                raise BotError("echo", str(reply)[:100])
            n += 1
            if level is None:
                out.append(elapsed)
            elif level.measuring(sent):
                level.echo.append(elapsed)
            await asyncio.sleep(rng.uniform(*ECHO_PAUSE) if level is not None else 0.02)
    return out


async def log_in_all(bots: list[Bot]) -> None:
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(bot: Bot) -> None:
        async with gate:
            await bot.login()

    await asyncio.gather(*(one(bot) for bot in bots))


class Meter:
    """CPU seconds so far of the servers (the daphne workers), their database's PostgreSQL backends
    and Redis, and this process (the bots), read from /proc at the start and the end of a window."""

    def __init__(self, servers: Servers, database: str) -> None:
        self.servers, self.database = servers, database
        self.began = self._read()

    def _read(self) -> tuple[float, dict[int, float], dict[int, str], float]:
        services = procfs.backing_services(self.database)
        return (self.servers.cpu_seconds(), {pid: procfs.cpu_seconds(pid) for pid in services}, services,
                time.process_time())

    def spent(self) -> dict[str, float]:
        workers, by_pid, _, bots = self.began
        now_workers, now_by_pid, kinds, now_bots = self._read()
        out = {"servers": now_workers - workers, "database": 0.0, "redis": 0.0, "bots": now_bots - bots}
        for pid, used in now_by_pid.items():  # a backend opened in the window counts from zero
            out[kinds[pid]] += used - by_pid.get(pid, 0.0)
        return out


async def idle_window(level: Level, servers: Servers, games: int, seconds: float, rss_before: float,
                      database: str) -> dict:
    """Every game open and nobody moving for ``seconds``: what an open table costs by itself (its
    sockets' heartbeats and presence) in CPU a minute, and the workers' memory for each table."""
    await asyncio.sleep(SETTLE_SECONDS)
    meter = Meter(servers, database)
    await asyncio.sleep(seconds)
    spent = meter.spent()
    rss = servers.rss_mb()
    per_table_minute = {k: round(1000 * v / games / (seconds / 60), 2) for k, v in spent.items()}
    return {
        "idle_s": seconds,
        "idle_cpu_ms_per_table_minute": per_table_minute,  # servers, database, redis, bots
        "rss_mb": round(rss, 1),
        "rss_mb_per_table": round((rss - rss_before) / games, 3),
    }


async def run_level(bots: list[Bot], servers: Servers, games: int, args: argparse.Namespace,
                    log_path: Path | None = None) -> dict:
    think = PACES[getattr(args, "pace", "quick")]
    idle = getattr(args, "idle", 0.0)
    database = database_name(args.database_url)
    level = Level(games=games, duration=args.duration, think=think, traced=[] if args.stages else None)
    if idle:
        level.go.clear()  # the games are set up and held open for the idle window before any move
        level.spread = START_SPREAD_SECONDS  # then begin over this window, not at one moment
    rss_before = servers.rss_mb()
    log_offset = log_path.stat().st_size if args.stages else 0
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    started: list[int] = []
    setup_began = time.perf_counter()
    pairs = [
        asyncio.create_task(run_pair(bots[2 * i], bots[2 * i + 1], args.target, level, gate, started))
        for i in range(games)
    ]
    deadline = time.monotonic() + SETUP_SECONDS
    while len(started) < games and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    setup_seconds = time.perf_counter() - setup_began
    if len(started) < games:
        level.error(BotError("setup_timeout", f"{len(started)} of {games} games started"))
    idle_figures = await idle_window(level, servers, games, idle, rss_before, database) if idle else {}
    if idle_figures and len(started) < games:  # the set-up's own work ran into the window
        idle_figures["idle_note"] = f"set-up unfinished: {len(started)} of {games} games started"
    level.go.set()
    # After the idle window: their pings, several a second, are not what an open table costs.
    echoes = [
        asyncio.create_task(echo_client(url, level))
        for url in servers.urls for _ in range(ECHO_SOCKETS_PER_SERVER)
    ]
    await asyncio.sleep(level.spread + args.warmup)  # measured from the warm-up after the last game began
    level.start = time.perf_counter()
    level.end = level.start + args.duration
    meter = Meter(servers, database)
    load_before = os.getloadavg()[0]
    await asyncio.sleep(args.duration)
    level.stop.set()
    spent = meter.spent()
    load_after = os.getloadavg()[0]
    for bot in bots[: 2 * games]:
        bot.changed.set()
    done, pending = await asyncio.wait([*pairs, *echoes], timeout=GRACE_SECONDS + WIND_DOWN_SECONDS)
    for task in pending:  # still waiting on a saturated server: give up on them
        task.cancel()
        level.error(BotError("wind_down_timeout"))
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            level.error(task.exception())
    marks = stages.read_marks(log_path, log_offset) if args.stages else None
    window = [(t + level.wall_offset) * 1000 for t in (level.start, level.end)]  # the servers' clock
    moves = level.moves

    def per_move(seconds: float) -> float | None:
        return round(1000 * seconds / moves, 1) if moves else None

    return {
        "games": games,
        "pace": getattr(args, "pace", "quick"),
        "duration_s": args.duration,
        # Where the CPU went during the window: the daphne workers, the database's backends and Redis
        # (together "all in"), and this process (the bots), which shares the cores.
        "server_cpu_s": round(spent["servers"], 1),
        "server_cpu_ms_per_move": per_move(spent["servers"]),
        "database_cpu_ms_per_move": per_move(spent["database"]),
        "redis_cpu_ms_per_move": per_move(spent["redis"]),
        "all_in_cpu_ms_per_move": per_move(spent["servers"] + spent["database"] + spent["redis"]),
        "bots_cpu_s": round(spent["bots"], 1),
        "bots_cpu_ms_per_move": per_move(spent["bots"]),
        "moves_per_table_second": round(moves / games / args.duration, 3),
        "tables_on_two_cores": capacity(spent, games, args.duration),
        **idle_figures,
        "loadavg_1m": [round(load_before, 2), round(load_after, 2)],
        "setup_s": round(setup_seconds, 1),
        "warmup_s": args.warmup,
        "start_spread_s": level.spread,
        "moves": moves,
        "moves_per_second": round(moves / args.duration, 1),
        "latency_ms": percentiles(level.latencies),
        "latency_by_second": per_second(level.sent_at, level.latencies, level.start) if args.series else None,
        "stages_ms": stages.breakdown(level.traced, marks) if marks else None,
        "collector_passes": stages.collector(marks["gc"], *window) if marks else None,
        "echo_latency_ms": percentiles(level.echo),
        "latency_over_echo": over_echo(percentiles(level.latencies), percentiles(level.echo)),
        # The mover's own answer: how much of the opponent's wait is the move's request itself.
        "answer_ms": percentiles(level.answers),
        "errors": sum(level.errors.values()),
        "error_kinds": dict(level.errors),
        "error_samples": level.error_samples,
        "stale_refusals": level.stale,
        "games_finished": level.games_finished,
        "think_s": list(think),
    }


def quiet_collector() -> None:
    """Keep the bots' garbage collector from pausing the measurement.

    The bots' own pauses count in every latency they time (a move's clock starts before its POST is
    written): with Python's settings, a 50-game level saw middle collections of up to 14 ms and a
    full one of 50 ms in the bot process, walking every bot's session and socket. What the bots hold
    from one level to the next is frozen out of the collector's passes, and its thresholds are the
    servers' (``games.infra.serving``)."""
    from games.infra.serving import GC_THRESHOLDS

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
