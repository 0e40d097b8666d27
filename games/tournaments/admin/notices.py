"""A tournament's public notices in the admin, read only."""

from __future__ import annotations

from django.contrib import admin

from games.tournaments.models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "kind", "words", "by")
    list_filter = ("kind", "tournament")
    fields = ("tournament", "created_at", "kind", "words", "reason_words", "by")
    readonly_fields = fields

    @admin.display(description="Notice")
    def words(self, obj: Notice) -> str:
        return obj.words

    @admin.display(description="Reason")
    def reason_words(self, obj: Notice) -> str:
        return obj.reason_words

    def has_add_permission(self, request) -> bool:
        return False
