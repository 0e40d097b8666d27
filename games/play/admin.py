from __future__ import annotations

from django.contrib import admin

from games.play.models import Game, Move, Round, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ("index", "user", "computer_level")
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "vs_computer", "computer_level", "rated", "target", "match_games",
                    "created_by", "created_at", "finished_at")
    list_filter = ("status", "vs_computer", "rated", "target", "match_games", "manual_counting")
    search_fields = ("seats__user__username", "created_by__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    # The snapshot holds the deck and hands, and the secret derives every deal: staff who play on
    # the site must not see them, so neither is shown. Only the service layer writes game state.
    exclude = ("state", "secret")
    readonly_fields = ("version", "status", "winner_seat", "result", "invite_token", "finished_at")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "created_at", "by_timeout")
    list_filter = ("by_timeout",)
    readonly_fields = ("game", "seq", "seat", "action", "events", "created_at", "by_timeout")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("game", "game_no", "deal_no", "dealer", "commitment")
    readonly_fields = ("game", "game_no", "deal_no", "dealer", "commitment", "summary")
