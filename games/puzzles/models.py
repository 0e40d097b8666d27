from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Puzzle(models.Model):
    """One day's deal: six cards, the seat, the score, and the engine's table for every split."""

    class Source(models.TextChoices):
        GAME = "game", "From a game played here"
        GENERATED = "generated", "Dealt for the puzzle"

    day = models.DateField(unique=True)
    hand = models.CharField(max_length=20, help_text="The six cards in notation, as dealt.")
    is_dealer = models.BooleanField()
    my_score = models.PositiveSmallIntegerField()
    their_score = models.PositiveSmallIntegerField()
    target = models.PositiveSmallIntegerField(default=121)
    source = models.CharField(max_length=10, choices=Source.choices)
    # Where a real deal came from, kept as numbers: the puzzle stays when the game is deleted.
    game_id_ref = models.PositiveBigIntegerField(null=True, blank=True)
    deal_ref = models.CharField(max_length=20, blank=True)
    # Every split, best first: laid_away, kept, expected_hand, expected_crib, net, win.
    table = models.JSONField()
    margin = models.FloatField(help_text="The best split's chance to win less the second best's.")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-day"]
        constraints = [
            models.CheckConstraint(condition=models.Q(target__in=[121, 61]), name="puzzle_target_valid"),
        ]

    def __str__(self) -> str:
        return f"Puzzle of {self.day.isoformat()}: {self.hand}"

    def get_absolute_url(self) -> str:
        return reverse("puzzles:day", args=[self.day.isoformat()])

    @property
    def cards(self) -> list[str]:
        return self.hand.split()

    @property
    def best(self) -> dict:
        return self.table[0]


class Vote(models.Model):
    """One answer. A visitor's is kept by their browser's token and moves to their account when
    they sign up or log in; the token stays on it, so the browser cannot answer again logged out."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="puzzle_votes")
    browser = models.CharField(max_length=40, blank=True)
    laid_away = models.CharField(max_length=5, help_text="The two cards, in the table's order.")
    agreed = models.BooleanField(help_text="The engine's best split.")
    on_day = models.BooleanField(help_text="Answered on the puzzle's own day (counts for a streak).")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["puzzle", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "user"], condition=models.Q(user__isnull=False),
                                    name="vote_once_per_player"),
            models.UniqueConstraint(fields=["puzzle", "browser"],
                                    condition=models.Q(user__isnull=True) & ~models.Q(browser=""),
                                    name="vote_once_per_browser"),
        ]
        indexes = [models.Index(fields=["browser"], name="vote_browser")]

    def __str__(self) -> str:
        return f"{self.puzzle.day}: {self.laid_away} by {self.user or 'a visitor'}"
