"""``python -m bench.load --soak MINUTES``: a long run at a human pace, killing a worker now and then.

    python -m bench.load --soak 30                          # 100 games, a kill every 180 s
    python -m bench.load --soak 3 --games 20 --kill-every 60 --soak-warmup 1 --json

It stands on what ``make serve`` runs (``cribsite.serve``: two daphne workers, PostgreSQL, Redis) with
the level's bots (``--games`` pairs, default 100, each thinking 0.5-2 s a move, one bot of a pair on
each worker), which play game after game for MINUTES.

Every ``--kill-every`` seconds (default 180; 0: never) it kills the last worker, SIGKILL and SIGTERM
in turn, and times how long the supervisor takes to have a new one answering ``/health/``. A worker
sent SIGTERM must exit within ``TERM_GRACE_SECONDS``; one still running then is sent SIGKILL, as a
process manager would, and the ``sigterm`` check fails. No kill comes in the last
``KILL_MARGIN_SECONDS``, so every restart is over before the end. The first worker is never killed:
it is the one whose memory and connections are watched over the whole run (``soak_rules``).

The bots go through a kill as a page does: a dropped socket reconnects with backoff (0.5 s doubling
to 8 s, with jitter, for as long as the soak lasts), the server sends the current board on every
connect, and play goes on; a move whose request failed waits for the socket to be back.

Every minute (``LINE_GRACE_SECONDS`` after it, so its last pushes can land) one line:

- moves/s: moves the server accepted that were sent in the minute;
- latency p50/p99: as in a level, a POST being sent to the opponent's socket receiving a board of
  the new version (a push that lands after the line is printed counts in ``--json``'s minutes);
- errors: how many during a restart's reconnect (from a kill to ``RESTART_GRACE_SECONDS`` after the
  new worker answered) and how many other;
- for each worker (by port, with its pid: a new pid is a restarted worker): resident memory (VmRSS)
  and open connections to the database, to Redis and from clients (websockets and HTTP), read from
  ``/proc`` every ``SAMPLE_SECONDS`` (``procfs``; the line shows the minute's last reading).

At the end, the checks (``soak_rules`` says each rule): no move lost or duplicated (the bots'
records against the database's move log), errors only during restarts' reconnects, every killed
worker back, every worker sent SIGTERM gone by itself, each worker's memory flat after its warm-up
(``--soak-warmup`` minutes, default 5) and no database or Redis connection leak. ``--json`` prints
all of it as one object (``minutes``, ``kills``, ``errors``, ``move_log``, ``memory``,
``connections``, ``checks``, ``passed``…); the exit status is 1 when a check failed. A check the run
was too short to judge (memory and connections, before the warm-up ends) is ``None``: not a failure.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from typing import TextIO

import aiohttp
from yarl import URL

from bench.load import procfs, soak_rules
from bench.load.bots import THINK_SECONDS, Bot, BotError, Level, resolved
from bench.load.figures import interpreter, percentiles
from bench.load.levels import (
    GRACE_SECONDS,
    SETUP_CONCURRENCY,
    SETUP_SECONDS,
    WIND_DOWN_SECONDS,
    quiet_collector,
    run_pair,
)
from bench.load.procfs import Reading
from bench.load.servers import ROOT, Servers, call_off_open_games, vacuum
from bench.load.soak_report import minute_line, print_summary
from bench.load.soak_rules import MINUTE, RESTART_WAIT_SECONDS, Kill
from bench.load.stack import Stack, serving

SOAK_GAMES = 100
KILL_EVERY_SECONDS = 180.0
SOAK_WARMUP_MINUTES = 5.0
MAX_SOAK_MINUTES = 240  # a bound on every loop of the run, however it is called
SAMPLE_SECONDS = 5.0
LINE_GRACE_SECONDS = 5.0
TERM_GRACE_SECONDS = 30.0  # a worker sent SIGTERM has this long to exit (Kubernetes' default grace)
KILL_MARGIN_SECONDS = 60.0  # a SIGTERM's grace and the restart after it end before the soak does
VACUUM_EVERY_SECONDS = 300.0  # only where autovacuum is off, standing in for it


async def sample(supervisor: int, level: Level, readings: list[Reading]) -> None:
    """Read every worker from /proc every SAMPLE_SECONDS until the soak stops, and once more then."""
    while True:
        readings.extend(await asyncio.to_thread(procfs.read_workers, supervisor, time.perf_counter()))
        if level.stop.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(level.stop.wait(), SAMPLE_SECONDS)


async def stopped(pid: int, seconds: float) -> bool:
    """Whether ``pid`` exits within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not procfs.running(pid):
            return True
        await asyncio.sleep(0.2)
    return not procfs.running(pid)


async def restarted(supervisor: int, port: int, old: int, url: str, deadline: float) -> int | None:
    """The pid of the worker that took over ``port`` from ``old`` once it answers ``/health/``, if that
    happens by ``deadline`` (``time.monotonic()``)."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=2)) as session:
        while time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            new = (await asyncio.to_thread(procfs.workers, supervisor)).get(port)
            if new is None or new == old:
                continue
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with session.get(url + "/health/") as response:
                    if response.status == 200:
                        return new
    return None


async def kill_workers(servers: Servers, level: Level, every: float, kills: list[Kill], out: TextIO) -> None:
    """Kill the last worker every ``every`` seconds from the start (SIGKILL first, then SIGTERM, in
    turn) and wait for its successor; the first kill that would come within KILL_MARGIN_SECONDS of
    the end is not made. A worker still running TERM_GRACE_SECONDS after its SIGTERM is sent SIGKILL,
    as a process manager would, so that the soak goes on (and the ``sigterm`` check fails)."""
    if every <= 0:
        return
    url = servers.urls[-1]
    port = URL(url).port
    for n in itertools.count():  # bounded: ``at`` grows past the end
        at = level.start + every * (n + 1)
        if at > level.end - KILL_MARGIN_SECONDS:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(level.stop.wait(), max(0.0, at - time.perf_counter()))
        if level.stop.is_set():
            return
        old = procfs.workers(servers.process.pid).get(port)
        if old is None:
            level.error(BotError("no_worker_to_kill", f"port {port}"))
            continue
        sig = signal.SIGKILL if n % 2 == 0 else signal.SIGTERM
        os.kill(old, sig)
        killed, deadline = time.perf_counter(), time.monotonic() + RESTART_WAIT_SECONDS
        # Listed at once: errors while this restart goes on are the restart's, in the minute's line too.
        kills.append(Kill(killed, port, sig.name, old, None, None))
        forced = None
        if sig == signal.SIGTERM and not await stopped(old, TERM_GRACE_SECONDS):
            forced = TERM_GRACE_SECONDS
            with contextlib.suppress(ProcessLookupError):
                os.kill(old, signal.SIGKILL)
        new = await restarted(servers.process.pid, port, old, url, deadline)
        back = round(time.perf_counter() - killed, 1) if new else None
        kills[-1] = Kill(killed, port, sig.name, old, new, back, forced)
        if new is None:
            level.error(BotError("restart_failed", f"port {port}: none in {RESTART_WAIT_SECONDS:.0f} s"))
        print(f"kill {n + 1} at {killed - level.start:.0f} s: {sig.name} to the worker on port {port}"
              f" (pid {old}); "
              + (f"still running {forced:.0f} s later, so SIGKILL; " if forced else "")
              + (f"pid {new} answered /health/ {back} s after the kill" if new else "no worker came back"),
              file=out, flush=True)


async def vacuuming(level: Level, url: str) -> None:
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(level.stop.wait(), VACUUM_EVERY_SECONDS)
        if level.stop.is_set():
            return
        await asyncio.to_thread(vacuum, url)


def harvest(level: Level, pairs: list[tuple[Bot, Bot]]) -> None:
    """Take every move whose push has come into the level's latencies (the rest wait)."""
    for a, b in pairs:
        for sender, receiver in ((a, b), (b, a)):
            for sent, ms in resolved(sender, receiver):
                level.sent_at.append(sent)
                level.latencies.append(ms)


def minute_rows(level: Level, count: int, kills: list[Kill], readings: list[Reading]) -> list[dict]:
    return soak_rules.minutes(level.start, count, [t for t, *_ in level.accepted],
                              list(zip(level.sent_at, level.latencies, strict=True)), level.error_times,
                              kills, readings)


async def report(level: Level, pairs: list[tuple[Bot, Bot]], count: int, kills: list[Kill],
                 readings: list[Reading], ports: list[int], out: TextIO) -> None:
    for m in range(1, count + 1):
        await asyncio.sleep(max(0.0, level.start + m * MINUTE + LINE_GRACE_SECONDS - time.perf_counter()))
        harvest(level, pairs)
        print(minute_line(minute_rows(level, count, kills, readings)[m - 1], ports), file=out, flush=True)


MOVE_LOG = """
import json
from games.play.models import Game, Move, Seat
ids = {ids!r}
players = {{(g, i): u for g, i, u in Seat.objects.filter(game_id__in=ids)
            .values_list("game_id", "index", "user__username")}}
games = {{g: {{"version": v, "move_count": n, "moves": []}} for g, v, n in Game.objects.filter(pk__in=ids)
          .values_list("pk", "version", "move_count")}}
for g, seq, seat, action in (Move.objects.filter(game_id__in=ids).order_by("game_id", "seq")
                             .values_list("game_id", "seq", "seat", "action")):
    games[g]["moves"].append([seq, players.get((g, seat)), action.get("type")])
print("MOVE-LOG " + json.dumps(games))
"""


def read_move_log(env: dict[str, str], game_ids: set[int]) -> dict[int, dict]:
    """The database's move log of these games, for ``soak_rules.check_moves`` (through the ORM, in a
    child process, as the other bench chores)."""
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "shell", "-c",
                           MOVE_LOG.format(ids=sorted(game_ids))],
                          env=env, check=True, capture_output=True, text=True, timeout=300)
    line = next(x for x in done.stdout.splitlines() if x.startswith("MOVE-LOG "))
    return {int(g): {**game, "moves": [tuple(m) for m in game["moves"]]}
            for g, game in json.loads(line.removeprefix("MOVE-LOG ")).items()}


async def run_soak(stack: Stack, args: argparse.Namespace, games: int, autovacuum_off: bool) -> dict:
    out, servers, count = stack.out, stack.servers, args.soak
    level = Level(games=games, duration=count * MINUTE, think=THINK_SECONDS, reconnect=True,
                  game_ids=set(), accepted=[], in_doubt=[], error_times=[])
    pairs = [(stack.bots[2 * i], stack.bots[2 * i + 1]) for i in range(games)]
    gate, started = asyncio.Semaphore(SETUP_CONCURRENCY), []
    setup_began = time.perf_counter()
    tasks = [asyncio.create_task(run_pair(a, b, args.target, level, gate, started)) for a, b in pairs]
    deadline = time.monotonic() + SETUP_SECONDS
    while len(started) < games and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    if len(started) < games:
        level.error(BotError("setup_timeout", f"{len(started)} of {games} games started"))
    level.start = time.perf_counter()
    level.end = level.start + level.duration
    ports = [URL(url).port for url in servers.urls]
    print(f"soak: {games} games for {count} min after a {level.start - setup_began:.1f} s set-up; "
          + (f"the worker on port {ports[-1]} is killed every {args.kill_every:g} s" if args.kill_every > 0
             else "no kills"), file=out, flush=True)
    kills: list[Kill] = []
    readings: list[Reading] = []
    watchers = [asyncio.create_task(sample(servers.process.pid, level, readings)),
                asyncio.create_task(kill_workers(servers, level, args.kill_every, kills, out))]
    if autovacuum_off:
        watchers.append(asyncio.create_task(vacuuming(level, args.database_url)))
    reporter = asyncio.create_task(report(level, pairs, count, kills, readings, ports, out))
    await asyncio.sleep(level.duration)
    level.stop.set()
    for bot in stack.bots:
        bot.changed.set()
    done, pending = await asyncio.wait(tasks, timeout=GRACE_SECONDS + WIND_DOWN_SECONDS)
    for task in pending:  # still waiting on a server: give up on them
        task.cancel()
        level.error(BotError("wind_down_timeout"))
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            level.error(task.exception())
    await asyncio.wait(watchers, timeout=RESTART_WAIT_SECONDS)
    for task in watchers:
        task.cancel()
    await reporter
    harvest(level, pairs)
    log = await asyncio.to_thread(read_move_log, stack.env, level.game_ids)
    return soak_figures(level, count, args, kills, readings, log, level.start - setup_began)


def soak_figures(level: Level, count: int, args: argparse.Namespace, kills: list[Kill],
                 readings: list[Reading], log: dict[int, dict], setup_s: float) -> dict:
    warmup = args.soak_warmup * MINUTE
    errors = soak_rules.split_errors(level.error_times, soak_rules.restart_windows(kills))
    moves = soak_rules.check_moves(log, level.accepted, level.in_doubt)
    memory = soak_rules.memory(readings, level.start, warmup)
    connections = soak_rules.leaks(readings, level.start, warmup, args.pool)
    checks = {
        "moves": moves["ok"],
        "errors": errors["other"] == 0,
        "restarts": all(k.new_pid is not None for k in kills),
        "sigterm": all(k.forced_after_s is None for k in kills),
        "memory": memory["ok"],
        "connections": connections["ok"],
    }
    return {
        "soak_minutes": count, "games": level.games, "workers": args.workers, "kill_every_s": args.kill_every,
        "warmup_minutes": args.soak_warmup, "setup_s": round(setup_s, 1),
        "moves": level.moves, "moves_per_second": round(level.moves / level.duration, 1),
        "latency_ms": percentiles(level.latencies), "games_finished": level.games_finished,
        "stale_refusals": level.stale, "think_s": list(THINK_SECONDS),
        "kills": soak_rules.kills_as_dicts(kills, level.start),
        "restart_grace_s": soak_rules.RESTART_GRACE_SECONDS, "term_grace_s": TERM_GRACE_SECONDS,
        "errors": {**errors, "samples": level.error_samples},
        "minutes": minute_rows(level, count, kills, readings),
        "move_log": moves, "memory": memory, "connections": connections,
        "checks": checks, "passed": all(ok is not False for ok in checks.values()),
    }


async def soak_main(args: argparse.Namespace) -> int:
    games = args.games or SOAK_GAMES
    async with serving(args, 2 * games) as stack:
        autovacuum_off = await asyncio.to_thread(vacuum, args.database_url)
        if autovacuum_off:
            print(f"PostgreSQL's autovacuum is off here: the soak vacuums every {VACUUM_EVERY_SECONDS:.0f} s",
                  file=stack.out, flush=True)
        quiet_collector()
        result = await run_soak(stack, args, games, autovacuum_off)
        await asyncio.to_thread(call_off_open_games, stack.env, stack.log)
        result["machine_speed_ms"] = stack.speed
        result["python"] = interpreter()
        print_summary(result, stack.out)
    if args.json:
        print(json.dumps(result))
    return 0 if result["passed"] else 1
