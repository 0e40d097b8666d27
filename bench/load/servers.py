"""The servers under load: ``cribsite.serve`` as ``make serve`` runs it, its database and its bot users."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import aiohttp

from bench.load import procfs
from bench.load.bots import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
SERVER_START_SECONDS = 90.0
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/cribbage_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def server_env(args: argparse.Namespace) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update(
        DJANGO_SETTINGS_MODULE="cribsite.settings" if args.real_hasher else "bench.settings",
        PYTHONPATH=str(ROOT),
        DEBUG="false",
        HTTPS="false",  # plain HTTP on loopback: no secure-only cookies, no redirect
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=f"{HOST},localhost",
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        CHANNEL_PREFIX=f"bench{os.getpid()}",
        GAMES_LOG_LEVEL="WARNING" if args.quiet_log else "INFO",
        TIMELINE_LOG="1" if args.stages else "",
        DB_POOL_MAX=str(args.pool),  # as make serve does
    )
    return env


def ensure_database(url: str) -> None:
    """Create the benchmark's PostgreSQL database if it is missing."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    if not parts.scheme.startswith("postgres") or not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise SystemExit(f"bench.load needs a PostgreSQL URL with a plain database name, not {url!r}")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=10) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def database_name(url: str) -> str:
    return urllib.parse.urlsplit(url).path.lstrip("/")


def vacuum(url: str) -> bool:
    """``VACUUM (ANALYZE)`` the benchmark's database; True if PostgreSQL's autovacuum is off.

    Every move rewrites its game's row: a run leaves tens of thousands of dead row versions, which
    autovacuum would clear within a minute. Some machines turn it off, and there the next level
    (or the next run) would pay for the last one's: PostgreSQL spent a quarter more CPU a move on a
    bloated table. Called before each level, when nothing is measured."""
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        off = conn.execute("SHOW autovacuum").fetchone()[0] == "off"
        conn.execute("VACUUM (ANALYZE)")
    return off


def prepare(env: dict[str, str], bots: int, log) -> None:
    """Migrate, collect static files, and make (or reset) the bot users, in a child process."""
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([*manage, *command], env=env, check=True, stdout=log, stderr=log, timeout=600)
    script = f"""
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
names = [f"bot{{i:04d}}" for i in range({bots})]
password = make_password({PASSWORD!r})
have = set(User.objects.filter(username__in=names).values_list("username", flat=True))
User.objects.bulk_create([User(username=n, password=password) for n in names if n not in have])
User.objects.filter(username__in=names).update(password=password, is_active=True)
"""
    subprocess.run([*manage, "shell", "-c", script], env=env, check=True, stdout=log, stderr=log, timeout=600)
    call_off_open_games(env, log)


def call_off_open_games(env: dict[str, str], log) -> None:
    """Games left open by a level (or a stopped run) would crowd the bots' lobbies: call them off.

    Bench data only, straight in the database, between levels (nothing is measured then)."""
    script = """
from games.play.models import Game
open_games = Game.objects.filter(seats__user__username__startswith="bot", status__in=["waiting", "active"])
Game.objects.filter(pk__in=list(open_games.values_list("pk", flat=True))).update(status="aborted")
"""
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "shell", "-c", script], env=env, check=True,
                   stdout=log, stderr=log, timeout=300)


class Servers:
    """``python -m cribsite.serve`` with ``workers`` daphne processes on ``port``, ``port + 1``…"""

    def __init__(self, env: dict[str, str], workers: int, port: int, log) -> None:
        self.urls = [f"http://{HOST}:{port + i}" for i in range(workers)]
        self.log_name = getattr(log, "name", "")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cribsite.serve", "--workers", str(workers), "--host", HOST,
             "--port", str(port), "--exit-with-parent"],
            env=env, stdout=log, stderr=log, cwd=ROOT,
        )

    async def wait_healthy(self) -> None:
        deadline = time.monotonic() + SERVER_START_SECONDS
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
            for url in self.urls:
                while True:
                    if self.process.poll() is not None:
                        raise SystemExit("the servers exited while starting: see the server log")
                    with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                        async with session.get(url + "/health/") as response:
                            if response.status == 200:
                                break
                    if time.monotonic() > deadline:
                        raise SystemExit(f"{url} did not become healthy in {SERVER_START_SECONDS:.0f} s")
                    await asyncio.sleep(0.5)

    def worker_pids(self) -> list[int]:
        text = Path(self.log_name).read_text(errors="replace") if self.log_name else ""
        latest: dict[str, int] = {}
        for port, pid in re.findall(r"worker on port (\d+) is pid (\d+)", text):
            latest[port] = int(pid)
        return list(latest.values())

    def cpu_seconds(self) -> float:
        """User + system CPU the worker processes have used so far (Linux /proc)."""
        total = 0.0
        for pid in self.worker_pids():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def rss_mb(self) -> float:
        """The workers' resident memory together (Linux /proc)."""
        return sum(procfs.rss_mb(pid) for pid in self.worker_pids())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
