from django.contrib import admin

from games.practice.models import CountingRecord, LessonRecord


@admin.register(CountingRecord)
class CountingRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "counted", "right", "streak", "best_streak", "updated_at")
    search_fields = ("user__username",)
    readonly_fields = ("updated_at",)


@admin.register(LessonRecord)
class LessonRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "lessons_started", "coach_hidden", "updated_at")
    search_fields = ("user__username",)
    readonly_fields = ("updated_at",)
