from __future__ import annotations

from django.conf import settings
from django.db import models


class CountingRecord(models.Model):
    """A player's counting practice: hands counted, how many right, the streak of right counts."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="counting_record")
    counted = models.PositiveIntegerField(default=0)
    right = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0, help_text="Right counts in a row, up to the last.")
    best_streak = models.PositiveIntegerField(default=0)
    level = models.PositiveSmallIntegerField(default=1, help_text="The level of the next hand dealt.")
    # The last hand counted, as the trainer names it: a second answer to it is refused.
    last_hand = models.CharField(max_length=40, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user"]
        constraints = [
            models.CheckConstraint(condition=models.Q(right__lte=models.F("counted")),
                                   name="counting_right_within_counted"),
            models.CheckConstraint(condition=models.Q(streak__lte=models.F("best_streak")),
                                   name="counting_streak_within_best"),
            models.CheckConstraint(condition=models.Q(level__gte=1, level__lte=5),
                                   name="counting_level_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.right} of {self.counted} right, streak {self.streak}"


class LessonRecord(models.Model):
    """A player's lessons (Learn by playing): the lesson game in hand, to resume, and whether the
    coach's explanations are hidden (kept for every lesson board until shown again)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="lesson_record")
    game = models.ForeignKey("play.Game", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+", help_text="The latest lesson game started.")
    coach_hidden = models.BooleanField(default=False)
    lessons_started = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["user"]

    def __str__(self) -> str:
        return f"{self.user}: {self.lessons_started} lessons"
