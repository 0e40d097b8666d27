"""Run the site as in production: N daphne processes on consecutive ports, kept alive.

``make serve`` migrates, collects the static files and then runs this::

    python -m cribsite.serve --workers 2 --host 127.0.0.1 --port 8000

Each worker is a plain ``daphne`` process serving ``cribsite.asgi:application`` on ``port + i``; put
a proxy in front of them (one upstream with every port, see docs/operations.md, Production). Nothing about a
game lives in a process, so a worker that dies is started again on its port and its players just
reconnect. Beside them it runs ``--task-workers`` (default 1) task workers (``manage.py task_worker``:
turn notices, analyses, and the periodic jobs of ``settings.SCHEDULE``), kept alive the same way; a
task worker started in the place of one that died is told the dead one's id, so the tasks it was
running are run again at once. SIGINT or SIGTERM stops them all (a task worker finishes the task it
is running).
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field

RESTARTS_PER_MINUTE = 5  # a worker that keeps dying is a bug to read about, not to hide
STOP_SECONDS = 10


MANAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "manage.py")


@dataclass
class Worker:
    port: int
    command: list[str]
    process: subprocess.Popen | None = None
    starts: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"worker on port {self.port}"

    def start(self) -> None:
        self.starts = [t for t in self.starts if t > time.monotonic() - 60] + [time.monotonic()]
        self.process = subprocess.Popen(self.command)
        print(f"serve: {self.name} is pid {self.process.pid}", flush=True)

    def crashing(self) -> bool:
        return len(self.starts) > RESTARTS_PER_MINUTE


@dataclass
class TaskWorker(Worker):
    """``manage.py task_worker`` with an id of its own each start; a start after one that died
    names it (``--replaces``), so the dead one's running tasks go back in the queue at once."""

    worker_id: str = ""

    @property
    def name(self) -> str:
        return f"task worker {self.port}"

    def start(self) -> None:
        dead, self.worker_id = self.worker_id, f"{socket.gethostname()[:30]}-{os.getpid()}-{self.port}-" \
                                               f"{secrets.token_hex(4)}"
        self.command = [sys.executable, MANAGE, "task_worker", "--no-reload", "--worker-id", self.worker_id]
        if dead:
            self.command += ["--replaces", dead]
        super().start()


def daphne_command(host: str, port: int, *, proxy_headers: bool, access_log: bool) -> list[str]:
    command = [sys.executable, "-m", "daphne", "-b", host, "-p", str(port)]
    if proxy_headers:
        # Behind a proxy: the client's address (rate limits, logs) comes from X-Forwarded-For.
        command.append("--proxy-headers")
    # Verbosity 1 prints an access line per request; the games log one line per action anyway.
    command += ["-v", "1" if access_log else "0"]
    return [*command, "cribsite.asgi:application"]


def preflight(workers: int) -> None:
    """Refuse set-ups that would run but lose pushes or state (checked before anything starts)."""
    if workers > 1 and not os.environ.get("REDIS_URL"):
        sys.exit("serve: more than one worker needs REDIS_URL (the in-memory channel layer is per process)")
    if os.environ.get("DATABASE_URL", "sqlite").startswith("sqlite"):
        print("serve: warning: SQLite serialises every write; set DATABASE_URL to PostgreSQL", flush=True)


def serve(workers: list[Worker], *, exit_with_parent: bool = False) -> int:
    stopping = False
    parent = os.getppid()

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for worker in workers:
        worker.start()
    status = 0
    while not stopping:
        time.sleep(0.5)
        if exit_with_parent and os.getppid() != parent:
            print("serve: the process that started us is gone; stopping", flush=True)
            break
        for worker in workers:
            code = worker.process.poll()
            if code is None or stopping:
                continue
            print(f"serve: {worker.name} exited with {code}", flush=True)
            if worker.crashing():
                print(f"serve: it died {RESTARTS_PER_MINUTE} times in a minute; stopping", flush=True)
                stopping, status = True, 1
                break
            worker.start()
    for worker in workers:
        if worker.process.poll() is None:
            worker.process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for worker in workers:
        try:
            worker.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait()
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "2")))
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--proxy-headers", action="store_true",
                        default=os.environ.get("PROXY_HEADERS", "") not in ("", "0", "false"))
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="stop when the starting process dies (tests and the load benchmark)")
    parser.add_argument("--access-log", action="store_true",
                        default=os.environ.get("ACCESS_LOG", "") not in ("", "0", "false"))
    parser.add_argument("--task-workers", type=int, default=int(os.environ.get("TASK_WORKERS", "1")),
                        help="task workers to run (0: none here, another host runs them)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    preflight(args.workers)
    workers = [
        Worker(port, daphne_command(args.host, port, proxy_headers=args.proxy_headers,
                                    access_log=args.access_log))
        for port in range(args.port, args.port + args.workers)
    ]
    workers += [TaskWorker(n, []) for n in range(1, args.task_workers + 1)]
    print(f"serve: {args.workers} daphne worker(s) on http://{args.host}:{args.port}"
          f"..{args.port + args.workers - 1}, {args.task_workers} task worker(s)", flush=True)
    return serve(workers, exit_with_parent=args.exit_with_parent)


if __name__ == "__main__":
    sys.exit(main())
