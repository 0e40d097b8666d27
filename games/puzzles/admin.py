from django.contrib import admin

from games.puzzles.models import Puzzle, Vote


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("day", "hand", "is_dealer", "my_score", "their_score", "target", "source", "margin")
    list_filter = ("source", "target")
    date_hierarchy = "day"
    # The table is the engine's and the votes count against it: it is read, never edited.
    readonly_fields = ("table", "margin", "created_at", "game_id_ref", "deal_ref")


@admin.register(Vote)
class VoteAdmin(admin.ModelAdmin):
    list_display = ("puzzle", "user", "laid_away", "agreed", "on_day", "created_at")
    list_filter = ("agreed", "on_day")
    raw_id_fields = ("puzzle", "user")
