"""The task workers alive: each writes its row every few seconds (``games.queue.worker``)."""

from __future__ import annotations

from django.db import models


class WorkerBeat(models.Model):
    """A task worker's last sign of life. A worker whose row is older than
    ``TASK_WORKER_STALE_SECONDS`` is dead: the tasks it was running are run again by another."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-beat_at"]

    def __str__(self) -> str:
        return f"{self.worker_id} (pid {self.pid} on {self.host}) at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class ScheduledJob(models.Model):
    """A periodic job's last run (``games.queue.scheduler``): the slot it was run for, claimed by one
    worker with a compare-and-set on ``slot``, so two workers never run the same slot."""

    name = models.CharField(max_length=64, primary_key=True)
    slot = models.DateTimeField(null=True, blank=True)  # the start of the period last run
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=200, blank=True)  # what the run said, or why it failed

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} at {self.slot:%Y-%m-%d %H:%M:%S}" if self.slot else self.name
