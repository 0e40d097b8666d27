"""Matches in the admin: a result entered or corrected, a forfeit, extra time."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from games.tournaments import services
from games.tournaments.admin import desk_actions
from games.tournaments.admin.forms import ExtendForm, ResultForm, apply_each, reason_page
from games.tournaments.models import Match, ResultChange


class ResultChangeInline(admin.TabularInline):
    """Every result the director set or corrected on this match: who, when, before and after."""

    model = ResultChange
    extra = 0
    fields = ("at", "by", "before", "after", "reason")
    readonly_fields = fields
    can_delete = False
    verbose_name = "result set by the director"
    verbose_name_plural = "Results set or corrected by the director (kept for good)"

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    inlines = [ResultChangeInline]
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
        "game_scores",
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
                "scores": match.game_scores,
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
                    scores=data["scores"],
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
            return reason_page(
                self,
                request,
                queryset,
                form,
                "extend_forfeit_time",
                "Extend the forfeit time",
                "Give the players of these matches more time before a forfeit can be claimed.",
            )
        minutes = form.cleaned_data["minutes"]

        def extend(match):
            said = desk_actions.extend(match, minutes=minutes, by=request.user)
            return match, said, said

        apply_each(self, request, queryset, extend)
        return None
