"""A tournament's public notices in the admin, read only."""

from __future__ import annotations

from django.contrib import admin

from games.tournaments import notice_words
from games.tournaments.models import Notice


class NoticeWords:
    """A notice's columns in words (``notice_words``), for the admin's list, form and inline."""

    @admin.display(description="Notice")
    def words(self, obj: Notice) -> str:
        return notice_words.in_words([obj])[0].words

    @admin.display(description="Reason")
    def reason_words(self, obj: Notice) -> str:
        return notice_words.in_words([obj])[0].reason_words


@admin.register(Notice)
class NoticeAdmin(NoticeWords, admin.ModelAdmin):
    list_display = ("created_at", "tournament", "kind", "words", "posted_by")
    list_filter = ("kind", "tournament")
    fields = ("tournament", "created_at", "kind", "words", "reason_words", "posted_by")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False
