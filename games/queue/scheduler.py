"""The periodic jobs, run by the task worker: the schedule is ``settings.SCHEDULE``, one entry a job::

    "daily_puzzle": {"run": "games.puzzles.jobs.choose_puzzle", "daily": "00:00"},
    "tournament_forfeits": {"run": "games.tournaments.jobs.apply_forfeits", "every": 60, "inline": True},

``every`` is a period in seconds, ``daily`` a time of day in UTC. Time is cut into slots (a period's
start, or the day's time); a job runs once a slot: ``run`` is called with the slot and returns what
it did, in a few words.

Every worker looks at the schedule every ``CHECK_SECONDS`` (``tick``). A job due is claimed with a
compare-and-set on its row (``ScheduledJob.slot``: set to this slot where it was older), in one
transaction with the task that runs it, so of two workers racing only one claims a slot (on
PostgreSQL the second's update waits for the first's row lock, then finds the slot taken), and a
claim rolled back enqueues nothing. A worker that was stopped over several slots runs a job once,
for the slot it is in: the jobs catch up by themselves (they look at what is due, not at what
happened in the slot), so they are safe to run late or twice.

A job is enqueued as a task (a worker that dies while it runs has it run again), or, with
``"inline": True``, run in the claiming worker's loop: for the quick, frequent jobs whose next
period is their retry and which would fill the task table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks import task

from games.queue.models import ScheduledJob

log = logging.getLogger("games.queue")

CHECK_SECONDS = 1.0  # how often a worker looks for a job due (one small query)
LATE_SECONDS = 60.0  # a slot unclaimed this long after it began: the scheduler is late (/health/)


@dataclass(frozen=True)
class Job:
    name: str
    run: str  # dotted path of ``run(slot: datetime) -> object``
    every: timedelta | None = None
    daily: time | None = None  # UTC
    inline: bool = False

    def slot(self, now: datetime) -> datetime:
        """The start of the slot ``now`` is in.

        >>> at = datetime(2026, 3, 10, 9, 7, 30, tzinfo=UTC)
        >>> Job("a", "x", every=timedelta(minutes=10)).slot(at).isoformat()
        '2026-03-10T09:00:00+00:00'
        >>> Job("b", "x", daily=time(7)).slot(at).isoformat()
        '2026-03-10T07:00:00+00:00'
        >>> Job("c", "x", daily=time(12)).slot(at).isoformat()
        '2026-03-09T12:00:00+00:00'
        """
        now = now.astimezone(UTC)
        if self.every is not None:
            step = self.every.total_seconds()
            return datetime.fromtimestamp(now.timestamp() // step * step, tz=UTC)
        at = datetime.combine(now.date(), self.daily, tzinfo=UTC)
        return at if at <= now else at - timedelta(days=1)

    def describe(self) -> str:
        if self.every is not None:
            return f"every {int(self.every.total_seconds())} s"
        return f"daily at {self.daily:%H:%M} UTC"


def jobs() -> list[Job]:
    """The schedule, read from ``settings.SCHEDULE``."""
    out = []
    for name, spec in settings.SCHEDULE.items():
        every = timedelta(seconds=float(spec["every"])) if "every" in spec else None
        daily = time.fromisoformat(spec["daily"]) if "daily" in spec else None
        if (every is None) == (daily is None):
            raise ValueError(f"SCHEDULE[{name!r}] needs one of 'every' (seconds) and 'daily' ('HH:MM' UTC)")
        out.append(Job(name, spec["run"], every=every, daily=daily, inline=bool(spec.get("inline"))))
    return out


def job_named(name: str) -> Job | None:
    return next((job for job in jobs() if job.name == name), None)


def due(now: datetime) -> list[tuple[Job, datetime]]:
    """The jobs whose slot at ``now`` has not been claimed, each with that slot (one query)."""
    last = dict(ScheduledJob.objects.values_list("name", "slot"))
    out = []
    for job in jobs():
        slot = job.slot(now)
        if last.get(job.name) is None or last[job.name] < slot:
            out.append((job, slot))
    return out


def claim(job: Job, slot: datetime, *, now: datetime, worker_id: str) -> bool:
    """Take ``slot`` of ``job`` for this worker, and enqueue its run unless it runs inline: True when
    this worker won it, False when the slot was taken (by another worker, or already run)."""
    with transaction.atomic():
        ScheduledJob.objects.bulk_create([ScheduledJob(name=job.name)], ignore_conflicts=True)
        won = ScheduledJob.objects.filter(Q(slot__isnull=True) | Q(slot__lt=slot), name=job.name).update(
            slot=slot, claimed_at=now, claimed_by=worker_id[:64], finished_at=None, outcome="")
        if won and not job.inline:
            run_job.enqueue(job.name, slot.isoformat())
    return bool(won)


def execute(job: Job, slot: datetime) -> str:
    """Run ``job`` for ``slot`` and record what came of it on its row. A failure is logged and
    recorded, never raised: the worker lives on, and the job's next slot tries again."""
    try:
        outcome = str(import_string(job.run)(slot))
        # The frequent jobs would fill the log (one every few seconds): their outcome is on the row.
        level = logging.DEBUG if job.inline else logging.INFO
        log.log(level, "action=scheduled_job job=%s slot=%s outcome=%s", job.name, slot.isoformat(), outcome)
    except Exception as exc:  # noqa: BLE001 - one job's bug must not stop the worker or the other jobs
        log.exception("action=scheduled_job_failed job=%s slot=%s", job.name, slot.isoformat())
        outcome = f"failed: {type(exc).__name__}"
    ScheduledJob.objects.filter(name=job.name, slot=slot).update(
        finished_at=timezone.now(), outcome=outcome[:200])
    return outcome


def tick(*, now: datetime | None = None, worker_id: str = "") -> list[str]:
    """Claim each job due at ``now`` and run or enqueue it; the names of the jobs this worker claimed."""
    now = now or timezone.now()
    claimed = []
    for job, slot in due(now):
        if claim(job, slot, now=now, worker_id=worker_id):
            claimed.append(job.name)
            if job.inline:
                execute(job, slot)
    return claimed


@task()
def run_job(name: str, slot: str) -> str:
    """A scheduled job's run for ``slot`` (ISO), enqueued by ``claim``."""
    job = job_named(name)
    if job is None:  # taken off the schedule since it was enqueued
        return "not on the schedule"
    return execute(job, datetime.fromisoformat(slot))


def health(now: datetime | None = None) -> dict:
    """Each job's schedule and last run, for ``/health/``; ``late`` when its slot began more than
    ``LATE_SECONDS`` ago and no worker has claimed it (none is running, or all are stuck)."""
    now = now or timezone.now()
    rows = {row.name: row for row in ScheduledJob.objects.all()}
    out = {}
    for job in jobs():
        row = rows.get(job.name)
        slot = job.slot(now)
        out[job.name] = {
            "when": job.describe(),
            "slot": row.slot.isoformat() if row and row.slot else None,
            "finished_at": row.finished_at.isoformat() if row and row.finished_at else None,
            "outcome": row.outcome if row else "",
            "late": (row is None or row.slot is None or row.slot < slot)
            and (now - slot).total_seconds() > LATE_SECONDS,
        }
    return out
