from django.contrib import admin

from games.puzzles.models import Puzzle, Vote


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("day", "hand", "is_dealer", "my_score", "their_score", "target", "source", "margin")
    list_filter = ("source", "target")
    date_hierarchy = "day"
    # The table is the engine's for this very deal and the answers count against it: a puzzle is
    # read here, never edited (deleting a day's lets the next visitor's request choose it again).
    readonly_fields = ("day", "hand", "is_dealer", "my_score", "their_score", "target", "source",
                       "game_id_ref", "deal_ref", "table", "margin", "created_at")


@admin.register(Vote)
class VoteAdmin(admin.ModelAdmin):
    list_display = ("puzzle", "user", "laid_away", "agreed", "on_day", "created_at")
    list_filter = ("agreed", "on_day")
    raw_id_fields = ("puzzle", "user")
