"""The test suite's task backend: Django's immediate backend, run when the enqueuing transaction
commits (``transaction.on_commit``), as a worker would find the row then. A task rolled back with
its transaction never runs; a task that raises fails the test instead of being marked failed.
The tests of the queue itself use the database backend and a real worker (tests/queue/).

Tasks on a queue in ``TEST_TASKS_NOT_RUN`` are not run: the analyses of a finished game take a
second or more of CPU, which every test that finishes a game would pay (a live server's answer to
the last move with it). A test that reads an analysis makes it (``games.history.tasks.analyse``);
the tests of the analysis task use the database backend and its worker (tests/history/)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django_tasks.backends.immediate import ImmediateBackend
from django_tasks.base import TaskResultStatus


class OnCommitImmediateBackend(ImmediateBackend):
    def _execute_task(self, task_result) -> None:
        if task_result.task.queue_name in settings.TEST_TASKS_NOT_RUN:
            return
        transaction.on_commit(lambda: self._run(task_result))

    def _run(self, task_result) -> None:
        super()._execute_task(task_result)
        if task_result.status == TaskResultStatus.FAILED:
            raise AssertionError(f"task {task_result.task.name} failed:\n{task_result.errors[-1].traceback}")
