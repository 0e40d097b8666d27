"""``make serve``'s supervisor runs the task worker beside daphne: /health/ sees its heartbeat, and a
worker killed with SIGKILL is started again, told the dead one's id so its running tasks go back in
the queue at once."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

from tests.ops.conftest import server_log, static_root  # noqa: F401  the ops tests' fixtures
from tests.ops.support import Site, http_get

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


def task_worker_pids(site: Site) -> list[int]:
    return [int(p) for p in re.findall(r"task worker 1 is pid (\d+)", site.log())]


def tasks_health(site: Site) -> dict:
    status, body = http_get(site.urls[0] + "/health/")
    assert status == 200, body
    return json.loads(body)["tasks"]


def wait_for(condition, what: str, site: Site, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"no {what} in {timeout} s:\n{site.log()[-3000:]}"
        time.sleep(0.1)


def test_the_supervisor_restarts_a_killed_task_worker_in_the_dead_one_s_place(static_root, server_log):  # noqa: F811
    with Site(1, static_root, server_log) as site:
        wait_for(lambda: tasks_health(site)["workers"] == 1, "task worker heartbeat", site)
        assert tasks_health(site)["ok"] is True
        (first,) = task_worker_pids(site)
        dead_id = Path(f"/proc/{first}/cmdline").read_bytes().split(b"\0")
        dead_id = dead_id[dead_id.index(b"--worker-id") + 1].decode()
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: len(task_worker_pids(site)) == 2, "task worker started again", site)
        second = task_worker_pids(site)[-1]
        command = Path(f"/proc/{second}/cmdline").read_bytes().split(b"\0")
        assert command[command.index(b"--replaces") + 1].decode() == dead_id
        assert "task worker 1 exited with -9" in site.log()
        # Its heartbeat comes; the dead one's row is gone (it was named dead, not waited out).
        wait_for(lambda: tasks_health(site)["workers"] == 1 and tasks_health(site)["heartbeat_age_s"] < 5,
                 "the new worker's heartbeat", site)
