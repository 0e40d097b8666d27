from __future__ import annotations

from django.contrib import admin

from games.history.models import PlayerGame, Rating, RatingChange


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
