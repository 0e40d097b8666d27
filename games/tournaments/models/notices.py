"""A tournament's public log, and the director's announcements in it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.tournaments.models.tournament import Tournament


class Notice(models.Model):
    """The tournament's public log: what players should know (a correction, a withdrawal...), and the
    director's announcements (``Kind.ANNOUNCEMENT``), which are also shown on the entrants' boards
    and lobbies. Stored as data, worded when shown (``games.tournaments.notice_words``)."""

    class Kind(models.TextChoices):
        INFO = "info", "Info"
        ANNOUNCEMENT = "announce", "Announcement"
        PAUSE = "pause", "Paused or resumed"
        START = "start", "Start"
        ROUND = "round", "Round"
        RESULT = "result", "Result corrected"
        FORFEIT = "forfeit", "Forfeit"
        WITHDRAWAL = "withdrawal", "Withdrawal"
        ENTRANTS = "entrants", "Entrants"
        DEADLINE = "deadline", "Forfeit time"
        FINISH = "finish", "Finish"
        CANCEL = "cancel", "Cancelled"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="notices")
    created_at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.INFO)
    # What happened ("forfeited", "round_opened"...) and its details: users by id, a game, a few
    # numbers. Empty for a notice whose ``text`` is all there is (an announcement).
    what_happened = models.CharField(max_length=20, blank=True)
    details = models.JSONField(default=dict, blank=True)
    text = models.CharField(max_length=300, blank=True)
    reason = models.TextField(blank=True)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}, {self.created_at:%Y-%m-%d %H:%M}"
