"""``python -m bench.load``: the command line, and one run of every level it asks for."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import urllib.parse

import bench.load
from bench.load.bots import PACES
from bench.load.figures import interpreter, percentiles, print_table, saturation, targets
from bench.load.levels import (
    IDLE_SECONDS,
    LEVELS,
    START_SPREAD_SECONDS,
    WARMUP_SECONDS,
    echo_client,
    quiet_collector,
    run_level,
)
from bench.load.servers import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    HOST,
    call_off_open_games,
    vacuum,
)
from bench.load.soak import KILL_EVERY_SECONDS, MAX_SOAK_MINUTES, SOAK_WARMUP_MINUTES, soak_main
from bench.load.stack import serving


async def main_async(args: argparse.Namespace) -> int:
    levels = [args.games] if args.games else [int(x) for x in args.levels.split(",") if x.strip()]
    if any(n < 1 for n in levels):
        raise SystemExit("levels must be positive")
    most = max(levels)
    async with serving(args, 2 * most) as stack:
        out = stack.out
        idle = []
        for url in stack.servers.urls:
            idle += await echo_client(url, None, count=100)
        idle_echo = percentiles(idle)
        results = []
        for games in levels:
            if await asyncio.to_thread(vacuum, args.database_url) and not results:
                print("PostgreSQL's autovacuum is off here: the benchmark vacuums before each level",
                      file=out, flush=True)
            begin = f"idle {args.idle:.0f} s, games begin over {START_SPREAD_SECONDS:.0f} s, " \
                if args.idle else ""
            print(f"level: {games} games, {begin}{args.warmup:.0f} s of play, then {args.duration:.0f} s "
                  "measured ...", file=out, flush=True)
            quiet_collector()
            result = await run_level(stack.bots, stack.servers, games, args, stack.log_path)
            await asyncio.to_thread(call_off_open_games, stack.env, stack.log)
            result["echo_idle_ms"] = idle_echo
            result["machine_speed_ms"] = stack.speed
            result["python"] = interpreter()
            results.append(result)
            print_table([result], idle_echo, out)
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results))
    else:
        print("\nsummary", file=out)
        print_table(results, idle_echo, out, by_second=False)  # printed with each level above
        print(f"saturation (first level with errors or p99 over {args.p99_limit:.0f} ms): "
              f"{saturation(results, args.p99_limit)}", file=out)
        for line in targets(results, args.p99_limit):
            print(f"target: {line}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load",
                                     description=bench.load.__doc__.splitlines()[0])
    parser.add_argument("--games", type=int,
                        help="run one level of this many games (default: all levels; with --soak, 100)")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)))
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=WARMUP_SECONDS,
                        help="seconds played after the set-up before measuring")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8400)
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS_URL))
    parser.add_argument("--pool", type=int, default=20, help="DB_POOL_MAX for each worker (0: no pool)")
    parser.add_argument("--real-hasher", action="store_true", help="serve with cribsite.settings unchanged")
    parser.add_argument("--quiet-log", action="store_true", help="servers log warnings only")
    parser.add_argument("--server-log", help="append the servers' output here (default: a temp file)")
    parser.add_argument("--series", action="store_true",
                        help="each level's latency second by second too (latency_by_second in --json)")
    parser.add_argument("--stages", action="store_true",
                        help="each level's time per stage of a move too, its slowest moves and the"
                             " workers' collector passes (stages_ms, collector_passes in --json)")
    parser.add_argument("--pace", choices=sorted(PACES), default="quick",
                        help="the bots' thinking time a move: quick 0.5-2 s (default), human 2-8 s")
    parser.add_argument("--idle", type=float, default=None, metavar="SECONDS",
                        help="hold every game open this long without a move after the set-up, to measure"
                             " what an open table costs (default: 30 with --pace human, else 0)")
    parser.add_argument("--p99-limit", type=float, default=250.0)
    parser.add_argument("--soak", type=int, metavar="MINUTES",
                        help="a soak instead of levels: --games games played at a human pace for MINUTES"
                             " while a worker is killed every --kill-every seconds (bench/load/soak.py)")
    parser.add_argument("--kill-every", type=float, default=KILL_EVERY_SECONDS, metavar="SECONDS",
                        help="soak: seconds between kills of the last worker, SIGKILL and SIGTERM in turn"
                             " (0: none)")
    parser.add_argument("--soak-warmup", type=float, default=SOAK_WARMUP_MINUTES, metavar="MINUTES",
                        help="soak: minutes a worker plays before its memory and connections are its"
                             " baseline")
    args = parser.parse_args(argv)
    if args.soak is not None:
        if not 1 <= args.soak <= MAX_SOAK_MINUTES:
            parser.error(f"--soak must be in [1, {MAX_SOAK_MINUTES}] minutes")
        if args.kill_every < 0 or 0 < args.kill_every < 30:
            parser.error("--kill-every must be 0 (no kills) or at least 30 s")
        if args.soak_warmup < 0:
            parser.error("--soak-warmup must not be negative")
        if args.series or args.stages:
            parser.error("--series and --stages are for levels, not --soak")
        if args.games is not None and args.games < 1:
            parser.error("--games must be positive")
    if args.idle is None:
        args.idle = IDLE_SECONDS if args.pace == "human" else 0.0
    if not 0 <= args.idle <= 600:
        parser.error("--idle must be in [0, 600]")
    if args.duration <= 0 or args.duration > 600:
        parser.error("--duration must be in (0, 600]")
    for url in (args.database_url, args.redis_url):
        host = urllib.parse.urlsplit(url).hostname
        if host not in (HOST, "localhost"):
            parser.error(f"only 127.0.0.1 is allowed, not {host}")
    signal.signal(signal.SIGTERM, _interrupt)
    return asyncio.run(soak_main(args) if args.soak is not None else main_async(args))


def _interrupt(signum, frame) -> None:
    """SIGTERM (a timeout, say) unwinds like Ctrl-C, so the servers are always stopped."""
    raise KeyboardInterrupt
