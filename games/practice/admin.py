from django.contrib import admin

from games.practice.models import CountingRecord


@admin.register(CountingRecord)
class CountingRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "counted", "right", "streak", "best_streak", "updated_at")
    search_fields = ("user__username",)
    readonly_fields = ("updated_at",)
