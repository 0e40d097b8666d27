"""A turn notice is a row written in the move's transaction: there with a move that stands, absent
with one refused or rolled back; a worker that died has its running tasks run again; /health/
reports the queue. Time is moved by writing it into the rows, never waited for."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.correspondence.tasks import turn_notice
from games.queue.models import WorkerBeat
from games.queue.worker import requeue_orphans
from tests.correspondence.support import correspondence_game, move_once
from tests.play.factories import as_form, load, logged_in, random_action
from tests.queue.conftest import player
from tests.queue.support import database_tasks, run_due, statuses

pytestmark = pytest.mark.django_db(transaction=True)

NOTICE = "games.correspondence.tasks.turn_notice"


def notices() -> int:
    return DBTaskResult.objects.filter(task_path=NOTICE).count()


def test_a_notice_is_enqueued_with_the_move_and_not_when_the_move_is_refused():
    alice, bob = player("alice"), player("bob")
    users = {0: alice, 1: bob}
    with database_tasks():
        game = correspondence_game(alice, bob)
        assert notices() == 1 and mail.outbox == []  # written with the move; sent by the worker
        game.refresh_from_db()
        state = load(game)
        seat = state.to_act[0]
        stale = {"version": game.version - 1, **as_form(random_action(state, seat, random.Random(1)))}
        answer = logged_in(users[seat]).post(reverse("act", args=[game.pk]), stale,
                                             headers={"HX-Request": "true"})
        assert answer.status_code == 409
        assert notices() == 1
        with pytest.raises(RuntimeError), transaction.atomic():  # a move whose transaction rolls back
            move_once(game, users)
            raise RuntimeError("after the move, before its commit")
        assert notices() == 1
        for _ in range(6):  # moves until one makes it someone else's turn
            move_once(game, users)
            if notices() > 1:
                break
        assert notices() == 2
        assert mail.outbox == []
        assert run_due() == 2
    assert statuses() == {"SUCCESSFUL": 2}


def running(worker_id: str):
    result = turn_notice.enqueue("k" * 32, 1, 1, "")
    DBTaskResult.objects.filter(pk=result.id).update(status="RUNNING", started_at=timezone.now(),
                                                     worker_ids=[worker_id])
    return result.id


def beat(worker_id: str, ago: timedelta) -> None:
    at = timezone.now() - ago
    WorkerBeat.objects.create(worker_id=worker_id, host="here", pid=1, started_at=at, beat_at=at)


def test_the_tasks_of_a_worker_gone_silent_are_run_again_and_a_live_worker_s_are_not(settings):
    settings.TASK_WORKER_STALE_SECONDS = 30
    with database_tasks():
        beat("silent", timedelta(seconds=31))
        beat("alive", timedelta(seconds=2))
        silent, alive, never_beat = running("silent"), running("alive"), running("unknown")
        assert requeue_orphans() == 2
        assert DBTaskResult.objects.get(pk=silent).status == "READY"
        assert DBTaskResult.objects.get(pk=never_beat).status == "READY"
        assert DBTaskResult.objects.get(pk=alive).status == "RUNNING"
        # The supervisor names a worker it saw die: its task goes back at once, heartbeat or not.
        assert requeue_orphans(dead=("alive",)) == 1
        assert DBTaskResult.objects.get(pk=alive).status == "READY"


def test_health_reports_the_workers_and_the_oldest_task_waiting(client, settings):
    settings.TASK_WAIT_ALERT_SECONDS = 300
    tasks = client.get("/health/").json()["tasks"]
    assert tasks == {"ok": False, "workers": 0, "heartbeat_age_s": None, "oldest_ready_s": 0.0,
                     "schedule": {}}  # the tests' schedule is empty (tests/queue/test_scheduler.py)
    beat("worker-1", timedelta(seconds=3))
    tasks = client.get("/health/").json()["tasks"]
    assert tasks["ok"] is True and tasks["workers"] == 1 and 3 <= tasks["heartbeat_age_s"] < 30
    with database_tasks():
        result = turn_notice.enqueue("k" * 32, 1, 1, "")
    DBTaskResult.objects.filter(pk=result.id).update(enqueued_at=timezone.now() - timedelta(minutes=10))
    answer = client.get("/health/")
    assert answer.status_code == 200  # a late queue does not take the web process out of service
    tasks = answer.json()["tasks"]
    assert tasks["ok"] is False and tasks["oldest_ready_s"] >= 600
