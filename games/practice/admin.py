from django.contrib import admin

from games.infra.admin_ids import OneToOneKeyAdmin
from games.practice.models import CountingRecord, LessonRecord


@admin.register(CountingRecord)
class CountingRecordAdmin(OneToOneKeyAdmin):
    list_display = ("user", "counted", "right", "streak", "best_streak", "updated_at")
    search_fields = ("user__username",)
    readonly_fields = ("updated_at",)


@admin.register(LessonRecord)
class LessonRecordAdmin(OneToOneKeyAdmin):
    list_display = ("user", "lessons_started", "coach_hidden", "updated_at")
    search_fields = ("user__username",)
    readonly_fields = ("updated_at",)
