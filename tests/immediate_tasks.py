"""The test suite's task backend: Django's immediate backend, run when the enqueuing transaction
commits (``transaction.on_commit``), as a worker would find the row then. A task rolled back with
its transaction never runs; a task that raises fails the test instead of being marked failed.
The tests of the queue itself use the database backend and a real worker (tests/queue/)."""

from __future__ import annotations

from django.db import transaction
from django_tasks.backends.immediate import ImmediateBackend
from django_tasks.base import TaskResultStatus


class OnCommitImmediateBackend(ImmediateBackend):
    def _execute_task(self, task_result) -> None:
        transaction.on_commit(lambda: self._run(task_result))

    def _run(self, task_result) -> None:
        super()._execute_task(task_result)
        if task_result.status == TaskResultStatus.FAILED:
            raise AssertionError(f"task {task_result.task.name} failed:\n{task_result.errors[-1].traceback}")
