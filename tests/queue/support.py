"""Helpers for the tests of the task queue: the site's database backend in the test's process, and
its worker run here until nothing is due (or as a process of its own, for the faults)."""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.queue.worker import Worker

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                              "QUEUES": ["default", "analysis"]}}


@contextmanager
def database_tasks():
    """Tasks enqueued inside are rows in the database, as on a site, until a worker runs them."""
    with override_settings(TASKS=DATABASE_TASKS):
        yield


def run_due(worker_id: str = "test-worker", *, schedule: bool = False) -> int:
    """Run every task due now in this process, as ``manage.py task_worker --batch`` would (and the
    periodic jobs due, with ``schedule``); how many ran."""
    worker = Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id=worker_id, excluded_queue_names=[], schedule=schedule)
    worker.run()
    return worker._run_tasks


def let_time_pass() -> int:
    """Every task waiting for a later time (a retry's back-off) is due now; how many there were."""
    return DBTaskResult.objects.filter(status="READY", run_after__gt=timezone.now()).exclude(
        run_after__year=9999).update(run_after=timezone.now())


def statuses() -> dict[str, int]:
    out: dict[str, int] = {}
    for status in DBTaskResult.objects.values_list("status", flat=True):
        out[status] = out.get(status, 0) + 1
    return out


assert "django_tasks_db" in settings.INSTALLED_APPS
