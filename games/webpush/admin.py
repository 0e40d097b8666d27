from __future__ import annotations

from django.contrib import admin, messages

from games.webpush.delivery import push_enabled, send_to_user
from games.webpush.models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "service", "created", "last_success", "refused_since")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    # The endpoint and keys are the browser's secrets: shown to nobody, not even here.
    fields = ("user", "service", "created", "last_success")
    readonly_fields = fields
    actions = ["send_test_notice"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Send a test notice to these players' browsers")
    def send_test_notice(self, request, queryset) -> None:
        if not push_enabled():
            self.message_user(request, "Push is off: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set.",
                              messages.ERROR)
            return
        users = {sub.user for sub in queryset}
        sent = sum(send_to_user(user, "Cribbage Hall", "A test notice from the site.", "/") for user in users)
        self.message_user(request, f"Sent to {sent} browser(s) of {len(users)} player(s).")
