"""A tournament's public notices in the admin, read only."""

from __future__ import annotations

from django.contrib import admin

from games.tournaments.models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "kind", "text", "by")
    list_filter = ("kind", "tournament")
    readonly_fields = ("tournament", "created_at", "kind", "text", "reason", "by")

    def has_add_permission(self, request) -> bool:
        return False
