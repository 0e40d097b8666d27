"""A game's append-only move log (``Move``), the truth any state is rebuilt from, and its deals
(``Round``): the commitment to each shuffle, public from the start."""

from __future__ import annotations

from django.db import models


class Move(models.Model):
    """One action, in order. Append-only: never updated or deleted while the game exists."""

    # No index of its own: move_unique_seq (game, seq) starts with the game and serves every
    # lookup by game; a second index cost every move's INSERT another index entry.
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list, help_text="What the engine said: replaying the log rebuilds it.")
    note = models.JSONField(
        null=True, blank=True, help_text="The site's own word on the move (a timeout, a claimed win)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    by_timeout = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} seat {self.seat}: {self.action.get('type')}"


class Round(models.Model):
    """One deal: the commitment to its shuffle is public from the start, the seed after the game."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="rounds")
    game_no = models.PositiveSmallIntegerField()
    deal_no = models.PositiveSmallIntegerField()
    dealer = models.SmallIntegerField()
    commitment = models.CharField(max_length=64)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["game", "game_no", "deal_no"]
        constraints = [
            models.UniqueConstraint(fields=["game", "game_no", "deal_no"], name="round_unique_deal")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} game {self.game_no} deal {self.deal_no}"
