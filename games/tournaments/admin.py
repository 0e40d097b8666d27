"""The organiser's side: Django's admin, with actions and small forms that call the services.

Every action is written to Django's admin log (``LogEntry``) and, where players should know it, to
the tournament's public notices (the services do that).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from games.tournaments import services
from games.tournaments.models import Entrant, Match, Notice, Tournament

RULE_FIELDS = (
    "format", "match_games", "playoff_match_games", "target", "skunks", "triple_skunk", "peg_out_zone",
    "rated", "win_points", "skunk_points", "double_skunk_points", "turn_timer",
)  # fmt: skip


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        required=True,
        help_text="Shown to the players on the tournament page.",
    )


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=24 * 60, initial=5)


class ResultForm(forms.Form):
    winner = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect)
    games1 = forms.IntegerField(
        min_value=0, max_value=7, required=False, label="Games won by the first player"
    )
    games2 = forms.IntegerField(
        min_value=0, max_value=7, required=False, label="Games won by the second player"
    )
    points1 = forms.IntegerField(min_value=0, max_value=99, required=False, label="Qualifying points, first")
    points2 = forms.IntegerField(min_value=0, max_value=99, required=False, label="Qualifying points, second")
    spread = forms.IntegerField(
        min_value=-999, max_value=999, required=False, label="Point spread (from the first player's side)"
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Kept with the result and shown to the players.",
    )

    def __init__(self, *args, match: Match, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            (match.entrant1_id, match.entrant1.name),
            (match.entrant2_id, match.entrant2.name),
        ]
        self.fields["games1"].label = f"Games won by {match.entrant1.name}"
        self.fields["games2"].label = f"Games won by {match.entrant2.name}"
        self.fields["points1"].label = f"Qualifying points, {match.entrant1.name}"
        self.fields["points2"].label = f"Qualifying points, {match.entrant2.name}"
        self.fields["spread"].label = f"Point spread, from {match.entrant1.name}'s side"
        for name in ("games1", "games2", "points1", "points2", "spread"):
            self.fields[
                name
            ].help_text = "Empty: the match's own figures (a walkover's if the winner changes)."


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


class NoticeInline(admin.TabularInline):
    model = Notice
    extra = 0
    fields = ("created_at", "kind", "text", "reason", "by")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = "Notices (shown on the tournament page)"

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = (
        "name",
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
            "House rules (every game: automatic counting, no hints)",
            {"fields": ("target", "skunks", "triple_skunk", "peg_out_zone", "rated")},
        ),
        ("Qualifying points", {"fields": ("win_points", "skunk_points", "double_skunk_points")}),
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
                    "links",
                )
            },
        ),
    )

    @admin.display(description="Entrants")
    def entrant_count(self, obj: Tournament) -> int:
        return obj.entrants.active().count()

    @admin.display(description="Stage")
    def progress(self, obj: Tournament) -> str:
        if obj.status != Tournament.Status.RUNNING:
            return "-"
        return f"{obj.get_stage_display()}, round {obj.current_round}"

    @admin.display(description="Links")
    def links(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "-"
        matches = reverse("admin:tournaments_match_changelist") + f"?tournament__id__exact={obj.pk}"
        entrants = reverse("admin:tournaments_entrant_changelist") + f"?tournament__id__exact={obj.pk}"
        return format_html(
            '<a href="{}">Public page</a> · <a href="{}">Matches (set results, extend '
            'forfeit time)</a> · <a href="{}">Entrants (withdraw)</a>',
            obj.get_absolute_url(),
            matches,
            entrants,
        )

    def get_readonly_fields(self, request, obj=None):
        state = ("status", "stage", "current_round", "champion", "started_at", "finished_at", "links")
        if obj is None or obj.status == Tournament.Status.UPCOMING:
            return state
        locked = RULE_FIELDS
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

    def _each(self, request, queryset, label: str, func, **kwargs) -> None:
        for t in queryset:
            try:
                outcome = func(tournament_id=t.pk, by=request.user, **kwargs)
            except services.TournamentError as exc:
                self.message_user(request, f"{t}: {exc.message}", messages.ERROR)
                continue
            detail = outcome if isinstance(outcome, str) else ""
            message = f"{label}{': ' + detail if detail else ''}"
            self.log_change(request, t, message)
            self.message_user(request, f"{t}: {message}.", messages.SUCCESS)

    @admin.action(description="Start (draw the pairings and create the first games)", permissions=["change"])
    def start_tournaments(self, request, queryset) -> None:
        self._each(request, queryset, "Started", services.tournament_start)

    @admin.action(description="Advance to the next round", permissions=["change"])
    def advance_tournaments(self, request, queryset) -> None:
        self._each(request, queryset, "Advanced", services.tournament_advance)

    @admin.action(description="Seed by rating (registration order without ratings)", permissions=["change"])
    def seed_by_rating(self, request, queryset) -> None:
        for t in queryset:
            try:
                used = services.seed_entrants(tournament_id=t.pk, by=request.user, by_rating=True)
            except services.TournamentError as exc:
                self.message_user(request, f"{t}: {exc.message}", messages.ERROR)
                continue
            how = "by rating" if used else "in registration order (no ratings on this site yet)"
            self.log_change(request, t, f"Seeded {how}")
            self.message_user(request, f"{t}: seeded {how}.", messages.SUCCESS)

    @admin.action(description="Seed in registration order", permissions=["change"])
    def seed_by_registration(self, request, queryset) -> None:
        for t in queryset:
            try:
                services.seed_entrants(tournament_id=t.pk, by=request.user, by_rating=False)
            except services.TournamentError as exc:
                self.message_user(request, f"{t}: {exc.message}", messages.ERROR)
                continue
            self.log_change(request, t, "Seeded in registration order")
            self.message_user(request, f"{t}: seeded in registration order.", messages.SUCCESS)

    @admin.action(description="Cancel…", permissions=["change"])
    def cancel_tournaments(self, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            self._each(request, queryset, f"Cancelled ({reason})", services.tournament_cancel, reason=reason)
            return None
        return _reason_page(
            self,
            request,
            queryset,
            form,
            "cancel_tournaments",
            "Cancel tournaments",
            "Cancel these tournaments? Games in play go on but no longer count.",
        )


def _reason_page(
    model_admin, request, queryset, form, action: str, title: str, intro: str
) -> TemplateResponse:
    """The intermediate page of an action that needs a reason (or a number)."""
    return TemplateResponse(
        request,
        "tournaments/admin/action_form.html",
        {
            **model_admin.admin_site.each_context(request),
            "title": title,
            "intro": intro,
            "objects": queryset,
            "form": form,
            "action": action,
            "opts": model_admin.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        },
    )


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
            return _reason_page(
                self,
                request,
                queryset,
                form,
                "withdraw_entrants",
                "Withdraw players",
                "Withdraw these players? Matches they have not finished go to their opponents.",
            )
        reason = form.cleaned_data["reason"]
        for entrant in queryset.select_related("tournament", "user"):
            try:
                services.entrant_withdraw(entrant_id=entrant.pk, by=request.user, reason=reason)
            except services.TournamentError as exc:
                self.message_user(request, f"{entrant}: {exc.message}", messages.ERROR)
                continue
            self.log_change(request, entrant, f"Withdrawn: {reason}")
            self.message_user(request, f"{entrant} withdrawn from {entrant.tournament}.", messages.SUCCESS)
        return None

    @admin.action(description="Remove from the entry list (before the start)", permissions=["change"])
    def remove_entrants(self, request, queryset) -> None:
        for entrant in queryset.select_related("tournament", "user"):
            try:
                services.entrant_remove(entrant_id=entrant.pk, by=request.user)
            except services.TournamentError as exc:
                self.message_user(request, f"{entrant}: {exc.message}", messages.ERROR)
                continue
            self.log_change(request, entrant.tournament, f"Removed {entrant.name} from the entry list")
            self.message_user(request, f"{entrant} removed from {entrant.tournament}.", messages.SUCCESS)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "stage",
        "round_no",
        "status",
        "winner",
        "score",
        "decided_by",
        "game_link",
        "result_link",
    )
    list_filter = ("status", "stage", "decided_by", "tournament")
    search_fields = ("entrant1__user__username", "entrant2__user__username", "tournament__name")
    list_select_related = ("tournament", "entrant1__user", "entrant2__user", "winner__user")
    actions = ["extend_forfeit_time"]
    change_form_template = "tournaments/admin/match_change_form.html"
    readonly_fields = (
        "tournament",
        "stage",
        "round_no",
        "slot",
        "entrant1",
        "entrant2",
        "match_games",
        "game",
        "status",
        "winner",
        "games1",
        "games2",
        "points1",
        "points2",
        "spread",
        "decided_by",
        "note",
        "extra_minutes",
        "started_at",
        "finished_at",
    )

    def get_actions(self, request):
        found = super().get_actions(request)
        found.pop("delete_selected", None)
        return found

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="Score")
    def score(self, obj: Match) -> str:
        return obj.score_text()

    @admin.display(description="Game")
    def game_link(self, obj: Match) -> str:
        if obj.game_id is None:
            return "-"
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:play_game_change", args=[obj.game_id]), obj.game_id
        )

    @admin.display(description="Result")
    def result_link(self, obj: Match) -> str:
        if not (obj.entrant1_id and obj.entrant2_id) or obj.status == Match.Status.BYE:
            return "-"
        return format_html(
            '<a href="{}">Set or correct</a>', reverse("admin:tournaments_match_result", args=[obj.pk])
        )

    def get_urls(self):
        return [
            path(
                "<id:match_id>/result/",
                self.admin_site.admin_view(self.result_view),
                name="tournaments_match_result",
            ),
            *super().get_urls(),
        ]

    def result_view(self, request: HttpRequest, match_id: int) -> HttpResponse:
        match = get_object_or_404(
            Match.objects.select_related("tournament", "entrant1__user", "entrant2__user"), pk=match_id
        )
        if not self.has_change_permission(request, match):
            raise PermissionDenied
        if not (match.entrant1_id and match.entrant2_id) or match.status == Match.Status.BYE:
            self.message_user(request, "This match has no two players.", messages.ERROR)
            return HttpResponseRedirect(reverse("admin:tournaments_match_change", args=[match.pk]))
        initial = (
            {
                "winner": match.winner_id,
                "games1": match.games1,
                "games2": match.games2,
                "points1": match.points1,
                "points2": match.points2,
                "spread": match.spread,
            }
            if match.decided
            else {}
        )
        form = ResultForm(request.POST or None, match=match, initial=initial)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                services.match_set_result(
                    match_id=match.pk,
                    winner_id=data["winner"],
                    reason=data["reason"],
                    by=request.user,
                    games1=data["games1"],
                    games2=data["games2"],
                    points1=data["points1"],
                    points2=data["points2"],
                    spread=data["spread"],
                )
            except services.TournamentError as exc:
                form.add_error(None, exc.message)
            else:
                match.refresh_from_db()
                message = (
                    f"Result set: {match.result_text()} "
                    f"(points {match.winner_points_text()}, spread {match.winner_spread:+d}). "
                    f"Reason: {data['reason']}"
                )
                self.log_change(request, match, message)
                self.log_change(request, match.tournament, f"{match.label}: {message}")
                self.message_user(request, message, messages.SUCCESS)
                return HttpResponseRedirect(
                    reverse("admin:tournaments_match_changelist")
                    + f"?tournament__id__exact={match.tournament_id}"
                )
        return TemplateResponse(
            request,
            "tournaments/admin/result_form.html",
            {
                **self.admin_site.each_context(request),
                "title": f"Set or correct the result: {match.label}",
                "match": match,
                "form": form,
                "opts": self.model._meta,
                "original": match,
            },
            status=400 if request.method == "POST" else 200,
        )

    @admin.action(description="Extend the forfeit time…", permissions=["change"])
    def extend_forfeit_time(self, request, queryset):
        form = ExtendForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return _reason_page(
                self,
                request,
                queryset,
                form,
                "extend_forfeit_time",
                "Extend the forfeit time",
                "Give the players of these matches more time before a forfeit can be claimed.",
            )
        minutes = form.cleaned_data["minutes"]
        for match in queryset:
            try:
                services.match_extend(match_id=match.pk, minutes=minutes, by=request.user)
            except services.TournamentError as exc:
                self.message_user(request, f"{match}: {exc.message}", messages.ERROR)
                continue
            self.log_change(request, match, f"Forfeit time extended by {minutes} minutes")
            self.message_user(
                request, f"{match}: forfeit time extended by {minutes} minutes.", messages.SUCCESS
            )
        return None


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "kind", "text", "by")
    list_filter = ("kind", "tournament")
    readonly_fields = ("tournament", "created_at", "kind", "text", "reason", "by")

    def has_add_permission(self, request) -> bool:
        return False
