"""A task worker killed (SIGKILL) in the middle of a send, with notices still queued: the worker
started in its place runs the one it was sending and the rest, and every notice goes exactly
once. The workers are real processes on the test database; their emails are lines in a file
(tests/queue/mail_file.py), which the first worker's mail server holds until it is killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django_tasks_db.models import DBTaskResult

from tests.correspondence.support import correspondence_game
from tests.ops.support import ROOT, database_url
from tests.queue.conftest import player
from tests.queue.support import database_tasks, statuses

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = 5


def worker(worker_id: str, mail_file: Path, *extra: str, hold_after: int | None = None) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": database_url(),
           "TEST_TASKS": "database", "TEST_EMAIL_BACKEND": "tests.queue.mail_file.FileMailBackend",
           "MAIL_FILE": str(mail_file), "SECRET_KEY": settings.SECRET_KEY, "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.pop("MAIL_HOLD_AFTER", None)
    if hold_after is not None:
        env["MAIL_HOLD_AFTER"] = str(hold_after)
    return subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "task_worker", "--no-reload",
                             "--interval", "0.1", "--worker-id", worker_id, *extra], env=env, cwd=ROOT)


def wait_for(condition, what: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, f"the worker exited with {process.returncode} before {what}"
        assert time.monotonic() < deadline, f"no {what} in {timeout} s"
        time.sleep(0.05)


def test_every_notice_goes_exactly_once_after_a_worker_killed_mid_send(tmp_path):
    mail_file = tmp_path / "mail.jsonl"
    with database_tasks():
        posters = [player(f"p{i}") for i in range(GAMES)]
        for i, poster in enumerate(posters):
            correspondence_game(poster, player(f"o{i}"))  # each tells its poster it is their turn
    assert statuses() == {"READY": GAMES}
    first = worker("first", mail_file, hold_after=2)
    try:
        wait_for(lambda: Path(f"{mail_file}.held").exists(), "send held", first)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
    assert statuses() == {"SUCCESSFUL": 2, "RUNNING": 1, "READY": GAMES - 3}
    held = Path(f"{mail_file}.held").read_text()
    assert held not in mail_file.read_text()  # the send it was killed in never went

    second = worker("second", mail_file, "--replaces", "first", "--batch")
    try:
        assert second.wait(timeout=120) == 0
    finally:
        if second.poll() is None:
            second.kill()
    sent = [json.loads(line)["to"][0] for line in mail_file.read_text().splitlines()]
    assert sorted(sent) == sorted(p.email for p in posters)  # each exactly once
    assert statuses() == {"SUCCESSFUL": GAMES}
    assert set(DBTaskResult.objects.values_list("return_value", flat=True)) == {"sent"}
