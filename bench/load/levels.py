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
from bench.load.board import ACCEPT_FORM
from bench.load.bots import (
    HTTP_TIMEOUT,
    SOCKET_OPEN_TIMEOUT,
    THINK_SECONDS,
    Bot,
    BotError,
    Level,
    latencies,
    traced,
)
from bench.load.figures import over_echo, per_second, percentiles
from bench.load.servers import Servers

LEVELS = (50, 100, 200, 400)
GRACE_SECONDS = 5.0  # after a level, how long late pushes may still arrive
SETUP_SECONDS = 45.0  # the longest a level waits for all its games to start (then it measures anyway)
WARMUP_SECONDS = 10.0  # after the set-up, play this long before measuring (--warmup)
WIND_DOWN_SECONDS = 20.0  # after a level, how long bots may take to finish what they were doing
SETUP_CONCURRENCY = 16
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


async def run_level(bots: list[Bot], servers: Servers, games: int, args: argparse.Namespace,
                    log_path: Path | None = None) -> dict:
    level = Level(games=games, duration=args.duration, think=THINK_SECONDS,
                  traced=[] if args.stages else None)
    log_offset = log_path.stat().st_size if args.stages else 0
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    started: list[int] = []
    setup_began = time.perf_counter()
    pairs = [
        asyncio.create_task(run_pair(bots[2 * i], bots[2 * i + 1], args.target, level, gate, started))
        for i in range(games)
    ]
    echoes = [
        asyncio.create_task(echo_client(url, level))
        for url in servers.urls for _ in range(ECHO_SOCKETS_PER_SERVER)
    ]
    deadline = time.monotonic() + SETUP_SECONDS
    while len(started) < games and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    setup_seconds = time.perf_counter() - setup_began
    if len(started) < games:
        level.error(BotError("setup_timeout", f"{len(started)} of {games} games started"))
    await asyncio.sleep(args.warmup)
    level.start = time.perf_counter()
    level.end = level.start + args.duration
    cpu = (servers.cpu_seconds(), time.process_time())
    load_before = os.getloadavg()[0]
    await asyncio.sleep(args.duration)
    level.stop.set()
    server_cpu, client_cpu = servers.cpu_seconds() - cpu[0], time.process_time() - cpu[1]
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
    return {
        "games": games,
        "duration_s": args.duration,
        # Where the CPU went during the window: the daphne workers, and this process (the bots).
        "server_cpu_s": round(server_cpu, 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu / level.moves, 1) if level.moves else None,
        "bots_cpu_s": round(client_cpu, 1),
        "loadavg_1m": [round(load_before, 2), round(load_after, 2)],
        "setup_s": round(setup_seconds, 1),
        "warmup_s": args.warmup,
        "moves": level.moves,
        "moves_per_second": round(level.moves / args.duration, 1),
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
        "think_s": list(THINK_SECONDS),
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
