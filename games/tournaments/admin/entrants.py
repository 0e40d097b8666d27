"""Entrants in the admin: seeds; withdrawals as shortcuts to the desk's own (``desk_actions``)."""

from __future__ import annotations

from django.contrib import admin

from games.tournaments.admin import desk_actions
from games.tournaments.admin.forms import ReasonForm, apply_each, reason_page
from games.tournaments.models import Entrant, Tournament
from games.tournaments.services import TournamentError


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "seed", "withdrawn", "qualifying_rank", "registered_at")
    list_filter = ("withdrawn", "tournament")
    search_fields = ("user__username", "tournament__name")
    readonly_fields = ("tournament", "user", "registered_at", "withdrawn", "withdrawn_at", "qualifying_rank")
    fields = ("tournament", "user", "seed", "registered_at", "withdrawn", "withdrawn_at", "qualifying_rank")
    actions = ["withdraw_entrants", "remove_entrants"]

    def get_actions(self, request):
        found = super().get_actions(request)
        found.pop("delete_selected", None)  # removing goes through the services
        return found

    def has_add_permission(self, request) -> bool:
        return False  # add players on the tournament's page (they are entered through the services)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.tournament.status != Tournament.Status.UPCOMING:
            return (*self.readonly_fields, "seed")
        return self.readonly_fields

    @admin.action(description="Withdraw…", permissions=["change"])
    def withdraw_entrants(self, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return reason_page(
                self,
                request,
                queryset,
                form,
                "withdraw_entrants",
                "Withdraw players",
                "Withdraw these players? Matches they have not finished go to their opponents.",
            )
        reason = form.cleaned_data["reason"]

        def withdraw(entrant):
            said = desk_actions.withdraw(entrant, by=request.user, reason=reason)
            return entrant.tournament, said, f"{entrant.tournament}: {said}"

        apply_each(self, request, queryset.select_related("tournament", "user"), withdraw)
        return None

    @admin.action(description="Remove from the entry list (before the start)", permissions=["change"])
    def remove_entrants(self, request, queryset) -> None:
        def remove(entrant):
            if entrant.tournament.status != Tournament.Status.UPCOMING:
                raise TournamentError("After the start a player can only be withdrawn.")
            said = desk_actions.withdraw(entrant, by=request.user)
            return entrant.tournament, said, f"{entrant.tournament}: {said}"

        apply_each(self, request, queryset.select_related("tournament", "user"), remove)
