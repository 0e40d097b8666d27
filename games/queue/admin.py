from __future__ import annotations

from django.contrib import admin

from games.queue.models import ScheduledJob, WorkerBeat


@admin.register(ScheduledJob)
class ScheduledJobAdmin(admin.ModelAdmin):
    """The periodic jobs' last runs, to read: the workers write them (``games.queue.scheduler``).
    Deleting a row makes its job due again at once."""

    list_display = ("name", "slot", "claimed_by", "finished_at", "outcome")
    readonly_fields = ("name", "slot", "claimed_at", "claimed_by", "finished_at", "outcome")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(WorkerBeat)
class WorkerBeatAdmin(admin.ModelAdmin):
    """The task workers alive, and when each last wrote its heartbeat."""

    list_display = ("worker_id", "host", "pid", "started_at", "beat_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
