"""Run the site's task worker: turn notices, analyses of finished games, and the periodic jobs of
``settings.SCHEDULE`` (the daily puzzle, the clocks of games at your own pace, the daily summary,
tournament forfeits, closing the sockets of dead server processes).

``make serve`` runs one under its supervisor and ``make run`` one beside the development server;
``--batch`` runs what is due and exits.
"""

from __future__ import annotations

import os
import socket
from argparse import ArgumentParser, BooleanOptionalAction

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django.utils.crypto import get_random_string

from games.queue.worker import Worker


class Command(BaseCommand):
    help = "Run the task worker (tasks in the database, heartbeats, tasks of dead workers run again)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--queue-name", default="*",
                            help="queues to run, comma-separated; '*' for all (default)")
        parser.add_argument("--interval", type=float, default=1.0,
                            help="seconds to wait when no task is due before looking again")
        parser.add_argument("--batch", action="store_true", help="run the tasks due, then exit")
        parser.add_argument("--max-tasks", type=int, default=None, help="exit after this many tasks")
        parser.add_argument("--worker-id", default="",
                            help="this worker's id, unique among workers (default: host, pid, random)")
        parser.add_argument("--replaces", default="",
                            help="dead workers' ids (comma-separated): their running tasks are queued again")
        parser.add_argument("--no-schedule", dest="schedule", action="store_false",
                            help="run tasks only, and leave the periodic jobs to other workers")
        parser.add_argument("--reload", action=BooleanOptionalAction, default=settings.DEBUG,
                            help="restart on code changes (default: DEBUG)")

    def handle(self, *, queue_name: str, interval: float, batch: bool, max_tasks: int | None, worker_id: str,
               replaces: str, reload: bool, schedule: bool, **options) -> None:
        worker_id = worker_id or f"{socket.gethostname()[:40]}-{os.getpid()}-{get_random_string(8)}"
        worker = Worker(
            queue_names=queue_name.split(","), interval=interval, batch=batch, backend_name="default",
            startup_delay=False, max_tasks=max_tasks, worker_id=worker_id[:64], excluded_queue_names=[],
            replaces=tuple(r for r in replaces.split(",") if r), schedule=schedule,
        )
        if reload and not batch:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # the child the reloader runs; the parent only watches files
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
