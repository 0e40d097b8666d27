"""The periodic jobs run by the task worker: once a slot, once for a slot missed however long the
workers were away, never twice for one slot, by one of two workers racing. Time is handed to the
scheduler (``tick(now=...)``), never waited for."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client, override_settings
from django.utils import timezone

from cribsite import settings as site_settings
from games.puzzles import clock as puzzle_clock
from games.puzzles.models import Puzzle
from games.queue import scheduler
from games.queue.models import ScheduledJob, WorkerBeat
from tests.queue.support import database_tasks, run_due, statuses

# Tasks run when the claim's transaction commits (tests/immediate_tasks.py): really, in these.
committing = pytest.mark.django_db(transaction=True)

ran: list[tuple[str, datetime]] = []  # the test jobs' runs, in order
HERE = "tests.queue.test_scheduler"


def every_ten_minutes(slot: datetime) -> str:
    ran.append(("ten", slot))
    return "done"


def at_midnight(slot: datetime) -> str:
    ran.append(("midnight", slot))
    return "done"


def broken(slot: datetime) -> str:
    raise RuntimeError("a bug in a job")


SCHEDULE = {
    "ten": {"run": f"{HERE}.every_ten_minutes", "every": 600, "inline": True},
    "midnight": {"run": f"{HERE}.at_midnight", "daily": "00:00"},  # a task
}


@pytest.fixture(autouse=True)
def _runs():
    ran.clear()
    yield
    ran.clear()


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@override_settings(SCHEDULE=SCHEDULE)
@committing
def test_each_job_runs_once_a_slot_and_once_for_the_slot_it_comes_back_in():
    assert sorted(scheduler.tick(now=at(2026, 3, 10, 9, 7, 30))) == ["midnight", "ten"]
    assert ran == [("ten", at(2026, 3, 10, 9, 0)), ("midnight", at(2026, 3, 10, 0, 0))]
    # Run again within the same slots: nothing, not even a claim.
    assert scheduler.tick(now=at(2026, 3, 10, 9, 9, 59)) == []
    assert len(ran) == 2
    # The workers were away for three hours: eighteen slots missed, one run, for the slot it is in.
    assert scheduler.tick(now=at(2026, 3, 10, 12, 15)) == ["ten"]
    assert ran[-1] == ("ten", at(2026, 3, 10, 12, 10))
    # And over midnight, away until three: the day's job runs once, late, for its midnight.
    assert sorted(scheduler.tick(now=at(2026, 3, 11, 3, 0))) == ["midnight", "ten"]
    assert ran[-1] == ("midnight", at(2026, 3, 11, 0, 0))
    assert len(ran) == 5
    row = ScheduledJob.objects.get(name="midnight")
    assert row.slot == at(2026, 3, 11) and row.finished_at is not None and row.outcome == "done"
    # The admin lists the last runs.
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "x"))
    page = staff.get("/admin/queue/scheduledjob/").content.decode()
    assert "midnight" in page and "done" in page


@override_settings(SCHEDULE=SCHEDULE)
@committing
def test_of_two_workers_that_both_found_a_job_due_one_runs_it():
    now = at(2026, 3, 10, 9, 7)
    first, second = scheduler.due(now), scheduler.due(now)  # both read before either claims
    assert [job.name for job, _ in first] == [job.name for job, _ in second] == ["ten", "midnight"]
    won = [scheduler.claim(job, slot, now=now, worker_id="a") for job, slot in first]
    lost = [scheduler.claim(job, slot, now=now, worker_id="b") for job, slot in second]
    assert won == [True, True] and lost == [False, False]
    assert [name for name, _ in ran] == ["midnight"]  # the inline job runs in tick, not in claim
    assert set(ScheduledJob.objects.values_list("claimed_by", flat=True)) == {"a"}


@override_settings(SCHEDULE=SCHEDULE)
@committing
def test_two_workers_ticking_at_once_run_each_slot_once():
    now = at(2026, 3, 10, 9, 7)
    ScheduledJob.objects.create(name="ten")  # both race for the claim itself, not for the row
    start = threading.Barrier(2)
    claimed: list[list[str]] = []

    def worker(name: str) -> None:
        try:
            start.wait(timeout=10)
            claimed.append(scheduler.tick(now=now, worker_id=name))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(claimed) == 2, "a worker's tick raised"
    assert sorted(name for names in claimed for name in names) == ["midnight", "ten"]
    assert sorted(name for name, _ in ran) == ["midnight", "ten"]
    if connection.vendor == "postgresql":
        assert ScheduledJob.objects.filter(claimed_by__in=["a", "b"]).count() == 2


@pytest.mark.django_db
@override_settings(SCHEDULE={"broken": {"run": f"{HERE}.broken", "every": 60, "inline": True},
                             "ten": SCHEDULE["ten"]})
def test_a_job_that_fails_is_recorded_and_the_others_still_run(caplog):
    assert scheduler.tick(now=at(2026, 3, 10, 9, 7)) == ["broken", "ten"]
    assert ran == [("ten", at(2026, 3, 10, 9, 0))]
    assert ScheduledJob.objects.get(name="broken").outcome == "failed: RuntimeError"
    assert "action=scheduled_job_failed job=broken" in caplog.text


@committing
def test_the_puzzle_is_chosen_by_the_midnight_job_before_anyone_asks(client, monkeypatch):
    midnight = at(2026, 3, 10)
    monkeypatch.setattr(puzzle_clock, "now", lambda: midnight + timedelta(seconds=20))
    daily = {"daily_puzzle": site_settings.SCHEDULE["daily_puzzle"]}
    with override_settings(SCHEDULE=daily):
        # Before the job: for the first minute a visitor is told it is coming, and nothing is chosen.
        answer = client.get("/puzzles/2026-03-10/")
        assert answer.status_code == 503 and b"being chosen" in answer.content
        assert answer["Retry-After"] == "60"
        assert not Puzzle.objects.exists()
        assert scheduler.tick(now=midnight + timedelta(seconds=1)) == ["daily_puzzle"]
        assert list(Puzzle.objects.values_list("day", flat=True)) == [midnight.date()]
        assert scheduler.tick(now=midnight + timedelta(hours=23)) == []
    assert client.get("/puzzles/", follow=True).context["puzzle"].day == midnight.date()
    assert Puzzle.objects.count() == 1


@pytest.mark.django_db
def test_a_request_chooses_the_puzzle_only_when_the_scheduler_is_late(client, monkeypatch, caplog):
    monkeypatch.setattr(puzzle_clock, "now", lambda: at(2026, 3, 10, 0, 1, 30))
    assert client.get("/puzzles/2026-03-10/").status_code == 200
    assert Puzzle.objects.filter(day=at(2026, 3, 10).date()).exists()
    assert "action=puzzle_chosen_in_request day=2026-03-10" in caplog.text


@committing
def test_the_worker_runs_the_schedule_through_the_queue_and_health_reports_it(client):
    daily = {"daily_puzzle": site_settings.SCHEDULE["daily_puzzle"]}
    with override_settings(SCHEDULE=daily), database_tasks():
        assert run_due(schedule=True) == 1  # the job, enqueued by the worker's tick and run by it
        assert run_due(schedule=True) == 0  # the same slot: nothing more
        assert statuses() == {"SUCCESSFUL": 1}
        today = timezone.now().astimezone(UTC).date()
        assert Puzzle.objects.filter(day=today).exists()
        schedule = client.get("/health/").json()["tasks"]["schedule"]
    assert schedule["daily_puzzle"]["when"] == "daily at 00:00 UTC"
    assert schedule["daily_puzzle"]["slot"] == f"{today.isoformat()}T00:00:00+00:00"
    assert schedule["daily_puzzle"]["outcome"].startswith(today.isoformat())
    assert schedule["daily_puzzle"]["late"] is False
    # A worker alive, but a slot over a minute old that no worker claimed: late, and not ok.
    now = timezone.now()
    WorkerBeat.objects.create(worker_id="w", host="h", pid=1, started_at=now, beat_at=now)
    with override_settings(SCHEDULE=daily):
        assert client.get("/health/").json()["tasks"]["ok"] is True
        ScheduledJob.objects.update(slot=datetime(2020, 1, 1, tzinfo=UTC))
        tasks = client.get("/health/").json()["tasks"]
    assert tasks["schedule"]["daily_puzzle"]["late"] is True and tasks["ok"] is False


def test_the_site_s_schedule_reads_and_names_jobs_that_exist():
    from django.utils.module_loading import import_string

    with override_settings(SCHEDULE=site_settings.SCHEDULE):
        jobs = {job.name: job for job in scheduler.jobs()}
    assert set(jobs) == {"daily_puzzle", "correspondence_clocks", "daily_digest", "tournament_forfeits",
                         "dead_sockets"}
    for job in jobs.values():
        assert callable(import_string(job.run))
    assert jobs["daily_puzzle"].slot(at(2026, 3, 10, 0, 0, 1)) == at(2026, 3, 10)
