"""The task worker: django-tasks-db's ``db_worker`` loop with what a site run for years needs.

django-tasks-db claims a task by marking it RUNNING in a transaction and runs it; a worker killed
while it runs one leaves it RUNNING for ever, and the package neither retries nor prunes. So this
worker also

* writes a heartbeat (``WorkerBeat``) every ``TASK_WORKER_BEAT_SECONDS``;
* puts back to READY the tasks left RUNNING by a worker that is dead: one whose heartbeat is older
  than ``TASK_WORKER_STALE_SECONDS``, or one the supervisor names with ``--replaces`` when it starts
  this worker in the place of one that died (then at once, not a heartbeat later);
* deletes the results of tasks finished more than ``TASK_RESULTS_KEEP_DAYS`` ago;
* runs the periodic jobs of ``settings.SCHEDULE`` when they are due (``games.queue.scheduler``).

A task run again after its worker died must therefore be safe to run twice (the turn notices keep
what has gone in ``NoticeSend``).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.utils import OperationalError
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker as DatabaseWorker
from django_tasks_db.models import DBTaskResult, get_date_max
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from games.queue import scheduler
from games.queue.models import WorkerBeat

log = logging.getLogger("games.queue")

SWEEP_SECONDS = 60.0  # how often a worker looks for dead workers' tasks and old results


def stale_before(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.TASK_WORKER_STALE_SECONDS)


def requeue_orphans(*, dead: tuple[str, ...] = (), now: datetime | None = None) -> int:
    """Put back to READY each task left RUNNING by a dead worker (``dead`` are known dead whatever
    their heartbeat says); returns how many."""
    now = now or timezone.now()
    if dead:
        WorkerBeat.objects.filter(worker_id__in=dead).delete()
    alive = set(WorkerBeat.objects.filter(beat_at__gte=stale_before(now)).values_list("worker_id", flat=True))
    orphans = [pk for pk, workers in DBTaskResult.objects.running().values_list("id", "worker_ids")
               if not workers or workers[-1] not in alive]
    if not orphans:
        return 0
    count = DBTaskResult.objects.filter(id__in=orphans, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.READY, started_at=None)
    log.warning("action=tasks_requeued count=%d: their worker died while running them", count)
    return count


def prune(now: datetime | None = None) -> int:
    """Forget finished tasks older than ``TASK_RESULTS_KEEP_DAYS`` and the rows of long-dead workers."""
    now = now or timezone.now()
    before = now - timedelta(days=settings.TASK_RESULTS_KEEP_DAYS)
    deleted, _ = DBTaskResult.objects.finished().filter(finished_at__lt=before).delete()
    WorkerBeat.objects.filter(beat_at__lt=before).delete()
    return deleted


def health(now: datetime | None = None) -> dict:
    """What ``/health/`` says of the queue: workers alive, the youngest heartbeat's age, how long
    the oldest task due has waited and the periodic jobs' last runs. ``ok`` when a worker is alive,
    nothing due waited longer than ``TASK_WAIT_ALERT_SECONDS`` and no periodic job is late."""
    now = now or timezone.now()
    beat = WorkerBeat.objects.order_by("-beat_at").values_list("beat_at", flat=True).first()
    alive = WorkerBeat.objects.filter(beat_at__gte=stale_before(now)).count()
    ready = DBTaskResult.objects.ready()
    at_once, later = ready.filter(run_after=get_date_max()), ready.exclude(run_after=get_date_max())
    due = [at_once.order_by("enqueued_at").values_list("enqueued_at", flat=True).first(),
           later.order_by("run_after").values_list("run_after", flat=True).first()]
    oldest = min((d for d in due if d is not None), default=None)
    waited = round((now - oldest).total_seconds(), 1) if oldest else 0.0
    schedule = scheduler.health(now)
    return {
        "ok": alive > 0 and waited <= settings.TASK_WAIT_ALERT_SECONDS
        and not any(job["late"] for job in schedule.values()),
        "workers": alive,
        "heartbeat_age_s": round((now - beat).total_seconds(), 1) if beat else None,
        "oldest_ready_s": waited,
        "schedule": schedule,
    }


class Worker(DatabaseWorker):
    """``db_worker``'s worker with a heartbeat, the sweep for dead workers' tasks, pruning and the
    periodic jobs (``schedule``: False leaves them to other workers)."""

    def __init__(self, *, replaces: tuple[str, ...] = (), schedule: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.replaces = replaces
        self.schedule = schedule
        self.started_at = timezone.now()
        self.beat_due = self.sweep_due = self.schedule_due = 0.0

    def beat(self) -> None:
        now = time.monotonic()
        if now < self.beat_due:
            return
        self.beat_due = now + settings.TASK_WORKER_BEAT_SECONDS
        WorkerBeat.objects.update_or_create(worker_id=self.worker_id, defaults={
            "host": socket.gethostname()[:255], "pid": os.getpid(), "started_at": self.started_at,
            "beat_at": timezone.now()})

    def sweep(self) -> None:
        now = time.monotonic()
        if now < self.sweep_due:
            return
        self.sweep_due = now + SWEEP_SECONDS
        requeue_orphans(dead=self.replaces)
        self.replaces = ()
        prune()

    def run_schedule(self) -> None:
        now = time.monotonic()
        if not self.schedule or now < self.schedule_due:
            return
        self.schedule_due = now + scheduler.CHECK_SECONDS
        scheduler.tick(worker_id=self.worker_id)

    def claim(self) -> tuple[DBTaskResult | None, bool]:
        """The next task due, claimed for this worker; and whether the queue could be read."""
        tasks = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        with exclusive_transaction(tasks.db):
            try:
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
                return task_result, True
            except OperationalError as exc:
                if is_locked_database_exception(exc):  # SQLite busy: the next round reads again
                    return None, False
                raise

    def run(self) -> None:
        log.info("action=task_worker_started worker_id=%s pid=%s", self.worker_id, os.getpid())
        try:
            while self.running:
                close_old_connections()
                try:
                    self.beat()
                    self.sweep()
                    self.run_schedule()
                    task_result, read = self.claim()
                except OperationalError:
                    # The database is away: keep the process, try again after a pause.
                    log.warning("action=task_worker_no_database worker_id=%s", self.worker_id, exc_info=True)
                    task_result, read = None, False
                if task_result is not None:
                    self.run_task(task_result)
                elif self.batch and read:
                    return
                if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                    return
                close_old_connections()
                if self.running and task_result is None:
                    time.sleep(self.interval)
        finally:
            self.stopped()

    def stopped(self) -> None:
        """A clean stop takes this worker's row away: it is not waited for as a dead one."""
        try:
            with transaction.atomic():
                WorkerBeat.objects.filter(worker_id=self.worker_id).delete()
        except OperationalError:
            pass
