from __future__ import annotations

from django.contrib import admin

from games.history.models import GameAnalysis, PlayerGame, Rating, RatingChange
from games.history.tasks import QUEUE, analyse_game
from games.infra.admin_ids import OneToOneKeyAdmin


@admin.register(PlayerGame)
class PlayerGameAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "user", "opponent_name", "result", "score", "opponent_score",
                    "finished_at")
    list_filter = ("result", "vs_computer", "rated", "target", "players")
    search_fields = ("user__username", "opponent_name")
    raw_id_fields = ("game", "user", "opponent", "partner")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "pool", "rating", "rd", "volatility", "games", "updated_at")
    list_filter = ("pool",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "pool", "rating_before", "rating_after", "at")
    list_filter = ("pool",)
    raw_id_fields = ("game", "user", "opponent")


@admin.register(GameAnalysis)
class GameAnalysisAdmin(OneToOneKeyAdmin):
    """The analyses kept; ``manage.py history_analyse`` makes those of games without one."""

    list_display = ("game", "made_at")
    raw_id_fields = ("game",)
    readonly_fields = ("game", "discards", "pegging", "made_at")
    actions = ("make_again",)

    @admin.action(description="Make the selected analyses again (a task each)")
    def make_again(self, request, queryset) -> None:
        for game_id in queryset.values_list("game_id", flat=True):
            analyse_game.using(queue_name=QUEUE).enqueue(game_id)
        self.message_user(request, f"{queryset.count()} analyses enqueued for the task worker.")
