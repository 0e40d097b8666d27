"""Helpers for the operations tests: the site as ``make serve`` runs it, on the test database.

:class:`Site` starts ``python -m cribsite.serve`` (real ``daphne`` processes, DEBUG off, the static
files collected once per session) against the database the tests use, so a test can kill a worker
with SIGKILL and watch the supervisor start it again. Only 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Collection
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
START_SECONDS = 60.0
SITE_APP_NAME = "cribsite-test-site"  # the application_name of a Site's PostgreSQL sessions
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never a proxy


def database_url() -> str:
    """The test database (created by pytest-django) as a DATABASE_URL for a child process."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    if connection.vendor == "postgresql":
        auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
        return f"postgres://{auth}@{s['HOST'] or HOST}:{s['PORT'] or 5432}/{s['NAME']}"
    raise NotImplementedError(connection.vendor)


def free_ports(count: int) -> int:
    """A first port with ``count`` consecutive free ports from it (free when we looked)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            first = probe.getsockname()[1]
        if first + count >= 65000:
            continue
        try:
            for port in range(first, first + count):
                with socket.socket() as s:
                    s.bind((HOST, port))
        except OSError:
            continue
        return first
    raise RuntimeError("no free ports")


def closed_port() -> int:
    """A port nothing listens on (for a channel layer that cannot be reached)."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def collect_static(target: Path) -> None:
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)}
    env["STATIC_ROOT"] = str(target)
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v", "0"],
        env=env, check=True, timeout=300, cwd=ROOT,
    )


def http_get(url: str, timeout: float = 10.0) -> tuple[int, str]:
    try:
        with _OPENER.open(url, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


class Site:
    """``cribsite.serve`` with ``workers`` daphne processes, production settings, the test database.

    ``env`` adds or overrides variables (``REDIS_URL`` pointing at a closed port, for example);
    ``None`` as a value removes one.
    """

    def __init__(self, workers: int, static_root: Path, log_path: Path, *, port: int | None = None,
                 env: dict[str, str | None] | None = None) -> None:
        self.port = port or free_ports(workers)
        self.urls = [f"http://{HOST}:{self.port + i}" for i in range(workers)]
        self.log_path = log_path
        full = {
            **os.environ,
            "DEBUG": "false",
            "HTTPS": "false",  # plain HTTP on loopback
            # The tests' key: sessions made by the tests (force_login) are signed with it.
            "SECRET_KEY": settings.SECRET_KEY,
            "STATIC_ROOT": str(static_root),
            "DATABASE_URL": database_url(),
            "ALLOWED_HOSTS": f"{HOST},localhost",
            "CHANNEL_PREFIX": f"{os.environ.get('CHANNEL_PREFIX', 'asgi')}-ops{secrets.token_hex(3)}",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "cribsite.settings",
            "PGAPPNAME": SITE_APP_NAME,  # its PostgreSQL sessions, told from the test process's own
            "SCHEDULE_JOBS": "",  # its task workers run no periodic job unless the test names some
        }
        full.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the test process needs it; a server must not have it
        for key, value in (env or {}).items():
            if value is None:
                full.pop(key, None)
            else:
                full[key] = value
        self._log = log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cribsite.serve", "--workers", str(workers), "--host", HOST,
             "--port", str(self.port), "--exit-with-parent"],  # no orphans if pytest is killed
            env=full, stdout=self._log, stderr=subprocess.STDOUT, cwd=ROOT,
        )
        try:
            for url in self.urls:
                self.wait_up(url)
        except BaseException:
            self.stop()
            raise

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_up(self, url: str, timeout: float = START_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cribsite.serve exited:\n{self.log()[-3000:]}")
            try:
                status, _ = http_get(url + "/", timeout=5)
            except OSError:
                status = 0
            if status == 200:
                return
            time.sleep(0.2)
        raise RuntimeError(f"{url} did not come up in {timeout} s:\n{self.log()[-3000:]}")

    def worker_pids(self, port: int) -> list[int]:
        """Every pid the supervisor has started on ``port``, oldest first."""
        return [int(p) for p in re.findall(rf"worker on port {port} is pid (\d+)", self.log())]

    def kill_worker(self, port: int) -> int:
        """SIGKILL the daphne on ``port`` (no clean shutdown at all); returns its pid."""
        pid = self.worker_pids(port)[-1]
        os.kill(pid, signal.SIGKILL)
        return pid

    def wait_restarted(self, port: int, old_pid: int, timeout: float = START_SECONDS) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = self.worker_pids(port)
            if pids and pids[-1] != old_pid:
                self.wait_up(f"http://{HOST}:{port}", timeout=max(1.0, deadline - time.monotonic()))
                return pids[-1]
            time.sleep(0.1)
        raise RuntimeError(f"the worker on {port} was not started again:\n{self.log()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:  # pragma: no cover - the supervisor ignores SIGTERM
                self.process.kill()
                self.process.wait(timeout=10)
        self._log.close()
        wait_for_other_sessions_to_end()

    def __enter__(self) -> Site:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_for_other_sessions_to_end(timeout: float = 10.0, *, pids: Collection[int] = ()) -> None:
    """PostgreSQL ends a stopped site's backends a moment later: wait for them (or for the backends
    ``pids``, connections closed by the test's own threads), or dropping the test database at the
    end of the run finds it still "being accessed by other users". Only those count: an idle
    session the test process keeps open in another thread would be waited on to the timeout."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND (application_name = %s OR pid = ANY(%s))",
                [SITE_APP_NAME, list(pids)],
            )
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.1)


class PrivateRedis:
    """A ``redis-server`` of the test's own on a free port, to stop and start again (the machine's
    shared Redis is never touched). Nothing is saved: a restart comes back empty, as after a crash."""

    def __init__(self) -> None:
        self.port = closed_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 20.0) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on {self.port} did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None
