"""What every run stands on: its database ready, the servers up and the bots logged in."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from bench.load.bots import Bot
from bench.load.figures import interpreter, machine_speed
from bench.load.levels import log_in_all
from bench.load.servers import Servers, ensure_database, prepare, server_env


@dataclass
class Stack:
    env: dict[str, str]  # the servers' environment (manage.py commands run with it too)
    log: BinaryIO  # the servers' output
    log_path: Path
    servers: Servers
    bots: list[Bot]
    speed: float  # machine_speed()
    out: TextIO  # where progress and tables go (stderr with --json, whose object goes to stdout)


@contextlib.asynccontextmanager
async def serving(args: argparse.Namespace, bot_count: int) -> AsyncIterator[Stack]:
    """Prepare ``bot_count`` bots and the database, start the servers, log the bots in; on the way
    out, close the bots and stop the servers, whatever happened."""
    ensure_database(args.database_url)
    env = server_env(args)
    log_path = Path(args.server_log or tempfile.mkstemp(prefix="bench-load-", suffix=".log")[1])
    out = sys.stderr if args.json else sys.stdout
    speed = machine_speed()
    with log_path.open("ab") as log:
        print(f"machine speed: {speed} ms of CPU for a fixed piece of engine work (smaller is quicker)"
              f" on {interpreter()}", file=out, flush=True)
        print(f"preparing {bot_count} bots; server log: {log_path}; load average {os.getloadavg()[0]:.2f}"
              f" on {os.cpu_count()} CPUs", file=out, flush=True)
        prepare(env, bot_count, log)
        servers = Servers(env, args.workers, args.port, log)
        bots: list[Bot] = []
        try:
            await servers.wait_healthy()
            # Alternate servers: the two players of a pair sit on different processes.
            bots = [Bot(i, servers.urls[i % len(servers.urls)]) for i in range(bot_count)]
            began = time.perf_counter()
            await log_in_all(bots)
            print(f"{len(bots)} bots logged in in {time.perf_counter() - began:.1f} s", file=out, flush=True)
            yield Stack(env, log, log_path, servers, bots, speed, out)
        finally:
            for bot in bots:
                with contextlib.suppress(Exception):
                    await bot.close()
            servers.stop()
