"""A tournament in the admin: its settings, entrants and notices. It is run from its desk
(``admin.desk``); the changelist's actions are shortcuts to the desk's own steps."""

from __future__ import annotations

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from games.tournaments import services
from games.tournaments.admin import desk, desk_actions
from games.tournaments.admin.forms import (
    RULE_FIELDS,
    TIE_BREAK_FIELDS,
    ReasonForm,
    TournamentForm,
    apply_each,
    reason_page,
)
from games.tournaments.admin.notices import NoticeWords
from games.tournaments.models import Entrant, Notice, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("user", "seed", "registered_at", "withdrawn", "qualifying_rank")
    readonly_fields = ("registered_at", "withdrawn", "qualifying_rank")
    autocomplete_fields = ("user",)
    ordering = ("seed", "registered_at")

    def _upcoming(self, obj) -> bool:
        return obj is None or obj.status == Tournament.Status.UPCOMING

    def has_add_permission(self, request, obj=None) -> bool:
        return self._upcoming(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return self._upcoming(obj) and super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        if self._upcoming(obj):
            return self.readonly_fields
        return ("user", "seed", *self.readonly_fields)


class NoticeInline(NoticeWords, admin.TabularInline):
    model = Notice
    extra = 0
    fields = ("created_at", "kind", "words", "reason_words", "posted_by")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = "Notices (shown on the tournament page)"

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    change_form_template = "tournaments/admin/tournament_change_form.html"
    list_display = (
        "name",
        "desk_link",
        "format",
        "status",
        "progress",
        "entrant_count",
        "registration_closes",
        "started_at",
    )
    list_filter = ("status", "format")
    search_fields = ("name",)
    inlines = [EntrantInline, NoticeInline]
    actions = [
        "start_tournaments",
        "advance_tournaments",
        "seed_by_rating",
        "seed_by_registration",
        "cancel_tournaments",
    ]
    fieldsets = (
        (
            None,
            {"fields": ("name", "description", "format", "match_games", "playoff_match_games", "qualifiers")},
        ),
        (
            "Qualifying games against different opponents (the ACC's format)",
            {"fields": ("qualifying_games", "pairing")},
        ),
        (
            "House rules (every game; no discard hints)",
            {"fields": ("target", "skunks", "triple_skunk", "peg_out_zone", "manual_counting", "muggins",
                        "pone_cuts", "rated")},
        ),
        ("Qualifying points and tie-breaks", {"fields": ("win_points", "skunk_points", "double_skunk_points",
                                                         *TIE_BREAK_FIELDS)}),
        ("Registration", {"fields": ("registration_opens", "registration_closes", "max_entrants")}),
        ("Running", {"fields": ("forfeit_minutes", "turn_timer", "auto_advance")}),
        (
            "State",
            {
                "fields": (
                    "status",
                    "stage",
                    "current_round",
                    "champion",
                    "started_at",
                    "finished_at",
                    "paused_at",
                    "links",
                )
            },
        ),
    )

    def get_fieldsets(self, request, obj=None):
        if obj is None or obj.status == Tournament.Status.UPCOMING:
            return self.fieldsets
        # Once started the tie-breaks are fixed: shown in words, not as choices.
        return [
            (name, {"fields": tuple("tie_break_order" if f == TIE_BREAK_FIELDS[0] else f
                                    for f in options["fields"] if f not in TIE_BREAK_FIELDS[1:])})
            for name, options in self.fieldsets
        ]

    @admin.display(description="Ties on points")
    def tie_break_order(self, obj: Tournament) -> str:
        return obj.tie_break_text().capitalize()

    @admin.display(description="Desk")
    def desk_link(self, obj: Tournament) -> str:
        return format_html('<a href="{}">Open the desk</a>',
                           reverse("admin:tournaments_tournament_desk", args=[obj.pk]))

    def get_urls(self):
        return [*desk.urls(self), *super().get_urls()]

    def get_actions(self, request):
        found = super().get_actions(request)
        found.pop("delete_selected", None)  # an event with players is cancelled, not deleted
        return found

    def has_delete_permission(self, request, obj=None) -> bool:
        """Only an event nobody has entered can be deleted (its entrants, matches and log would go
        with it); any other is cancelled, which keeps its record."""
        if obj is not None and (obj.entrants.exists() or obj.matches.exists()):
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description="Entrants")
    def entrant_count(self, obj: Tournament) -> int:
        return obj.entrants.active().count()

    @admin.display(description="Stage")
    def progress(self, obj: Tournament) -> str:
        if obj.status != Tournament.Status.RUNNING:
            return "-"
        return obj.round_name(obj.stage, obj.current_round)

    @admin.display(description="Links")
    def links(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "-"
        matches = reverse("admin:tournaments_match_changelist") + f"?tournament__id__exact={obj.pk}"
        entrants = reverse("admin:tournaments_entrant_changelist") + f"?tournament__id__exact={obj.pk}"
        return format_html(
            '<a href="{}">The desk</a> · <a href="{}">Public page</a> · <a href="{}">Matches (set results, '
            'extend forfeit time)</a> · <a href="{}">Entrants (withdraw)</a>',
            reverse("admin:tournaments_tournament_desk", args=[obj.pk]),
            obj.get_absolute_url(),
            matches,
            entrants,
        )

    def get_readonly_fields(self, request, obj=None):
        state = ("status", "stage", "current_round", "champion", "started_at", "finished_at", "paused_at",
                 "links")
        if obj is None or obj.status == Tournament.Status.UPCOMING:
            return state
        locked = (*RULE_FIELDS, "tie_break_order", *TIE_BREAK_FIELDS)  # the last: off the form
        if obj.stage == Tournament.Stage.KNOCKOUT or obj.status != Tournament.Status.RUNNING:
            locked = (*locked, "qualifiers")
        return (*state, *locked)

    def save_model(self, request, obj: Tournament, form, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change: bool) -> None:
        if formset.model is not Entrant:
            return super().save_formset(request, form, formset, change)
        # Entrants are added and removed through the services (which post a notice for players).
        tournament = form.instance
        formset.save(commit=False)
        for entrant in formset.deleted_objects:
            self._call(request, services.entrant_remove, entrant_id=entrant.pk, by=request.user)
        for entrant in formset.new_objects:
            self._call(
                request,
                services.entrant_add,
                tournament_id=tournament.pk,
                user=entrant.user,
                by=request.user,
                seed=entrant.seed,
            )
        for entrant, _changed in formset.changed_objects:
            if tournament.status == Tournament.Status.UPCOMING:
                Entrant.objects.filter(pk=entrant.pk).update(seed=entrant.seed)
        return None

    def _call(self, request, func, **kwargs):
        try:
            return func(**kwargs)
        except services.TournamentError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return None

    def _step(self, request, queryset, key: str, reason: str = "") -> None:
        """A changelist shortcut: the desk's own step (``desk_actions.take_step``) on each event."""

        def act(t):
            said = desk_actions.take_step(t, key, by=request.user, reason=reason)
            return t, said, f"{t}: {said}"

        apply_each(self, request, queryset, act)

    @admin.action(description="Start (draw the pairings and create the first games)", permissions=["change"])
    def start_tournaments(self, request, queryset) -> None:
        self._step(request, queryset, "start")

    @admin.action(description="Advance to the next round", permissions=["change"])
    def advance_tournaments(self, request, queryset) -> None:
        self._step(request, queryset, "advance")

    @admin.action(description="Seed by rating (registration order without ratings)", permissions=["change"])
    def seed_by_rating(self, request, queryset) -> None:
        self._step(request, queryset, "seed_rating")

    @admin.action(description="Seed in registration order", permissions=["change"])
    def seed_by_registration(self, request, queryset) -> None:
        self._step(request, queryset, "seed_order")

    @admin.action(description="Cancel…", permissions=["change"])
    def cancel_tournaments(self, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            self._step(request, queryset, "cancel", form.cleaned_data["reason"])
            return None
        return reason_page(
            self,
            request,
            queryset,
            form,
            "cancel_tournaments",
            "Cancel tournaments",
            "Cancel these tournaments? Games in play go on but no longer count.",
        )
