"""Moves that arrive at the same moment, for the concurrency tests: a crew of worker threads, each
with its own database connection, released together by a barrier, so the requests really meet in
``games.play.services`` (the row lock on PostgreSQL, ``BEGIN IMMEDIATE`` and the compare-and-set on
SQLite). A task goes through the HTTP view (Django's test client, with htmx's header) or calls the
service directly, and says how it ended: applied, refused cleanly, or failed.

``_secrets`` and ``_no_rate_limit`` are autouse in each module that imports them; the ``crew_of`` and
``slow_engine`` fixtures are in ``tests/live/conftest.py``."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.db import connections
from django.test import Client

from games.play import services
from tests.live.support import board_version
from tests.play.factories import fixed_secrets

HTMX = {"HX-Request": "true"}
# 409, 422, 409; and a move made already from that board, sent again (200, marked as a replay).
CLEAN_REFUSALS = (services.StaleVersion, services.IllegalMove, services.NotAvailable, services.AlreadyMade)
CLEAN_STATUSES = {409, 422}
MAX_STEPS = 400
TASK_SECONDS = 30


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "live-concurrency")


@pytest.fixture(autouse=True)
def _no_rate_limit(settings):
    # A bot-stopper (600 moves a minute per user) is not what these bursts are about.
    settings.RATE_LIMIT_MOVES = "off"


# --- a crew of threads, each with its own connection ------------------------------------------


@dataclass
class Result:
    ok: bool
    refusal: str = ""  # the ServiceError class name, or the HTTP status
    version: int | None = None  # the version the move made, when applied
    error: BaseException | None = None  # anything else: always a failure


@dataclass
class RacerResult(Result):
    applied: list[int] = field(default_factory=list)  # versions this racer's moves made
    refused: dict[str, int] = field(default_factory=dict)


class Crew:
    """``size`` worker threads. ``run(tasks)`` hands one task to each, lets them all go at once
    (a barrier) and returns their results in order."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.inboxes: list[queue.Queue] = [queue.Queue() for _ in range(size)]
        self.results: queue.Queue = queue.Queue()
        self.barrier = threading.Barrier(size)
        self.threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(size)]
        for t in self.threads:
            t.start()

    def _work(self, index: int) -> None:
        try:
            while True:
                task = self.inboxes[index].get()
                if task is None:
                    return
                try:
                    self.barrier.wait(timeout=TASK_SECONDS)
                    result = task()
                except BaseException as exc:  # noqa: BLE001 - reported by the test, never swallowed
                    result = Result(False, refusal=type(exc).__name__, error=exc)
                self.results.put((index, result))
        finally:
            connections.close_all()  # this thread's connections only

    def run(self, tasks: list[Callable[[], Result]]) -> list[Result]:
        assert len(tasks) == self.size
        for inbox, task in zip(self.inboxes, tasks, strict=True):
            inbox.put(task)
        out: list[Result | None] = [None] * self.size
        for _ in range(self.size):
            index, result = self.results.get(timeout=TASK_SECONDS)
            out[index] = result
        return out  # type: ignore[return-value]

    def stop(self) -> None:
        for inbox in self.inboxes:
            inbox.put(None)
        for t in self.threads:
            t.join(timeout=TASK_SECONDS)


def by_service(user, game_id: int, version: int, form: dict) -> Callable[[], Result]:
    def task() -> Result:
        try:
            outcome = services.game_act(user=user, game_id=game_id, version=version, action=form)
        except CLEAN_REFUSALS as exc:
            return Result(False, refusal=type(exc).__name__)
        return Result(True, version=outcome.game.version)

    return task


def by_client(client: Client, game_id: int, version: int, form: dict) -> Callable[[], Result]:
    def task() -> Result:
        response = client.post(f"/games/{game_id}/act/", {"version": version, **form}, headers=HTMX)
        html = response.content.decode()
        if response.status_code == 200 and response.get("Idempotent-Replayed") == "true":
            # The same move, made already from that board: answered with the board, not made again.
            assert 'id="board"' in html and 'class="board-error"' not in html, html[:300]
            return Result(False, refusal="replayed")
        if response.status_code == 200:
            return Result(True, version=_board_version(html))
        if response.status_code in CLEAN_STATUSES:
            assert 'id="board"' in html and 'class="board-error"' in html, html[:300]
            return Result(False, refusal=str(response.status_code))
        return Result(False, refusal=str(response.status_code), error=AssertionError(html[:500]))

    return task


def _board_version(html: str) -> int:
    version = board_version(html)
    assert version is not None, html[:300]
    return version


def assert_clean(results: list[Result]) -> None:
    errors = [r.error for r in results if r.error is not None]
    if errors:
        raise AssertionError(f"{len(errors)} request(s) failed other than by a clean refusal") from errors[0]
