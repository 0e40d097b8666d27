"""A tournament's public log, and the director's announcements in it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.tournaments import notice_words
from games.tournaments.models.tournament import Tournament


class Notice(models.Model):
    """The tournament's public log: what players should know (a correction, a withdrawal...), and the
    director's announcements (``Kind.ANNOUNCEMENT``), which are also shown on the entrants' boards
    and lobbies."""

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
    what = models.CharField(max_length=20, blank=True)
    params = models.JSONField(default=dict, blank=True)
    text = models.CharField(max_length=300, blank=True)
    reason = models.TextField(blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.words

    @property
    def words(self) -> str:
        """This notice in words (a list is worded at once, in one query: ``notice_words.word``)."""
        return self._worded()[0]

    @property
    def reason_words(self) -> str:
        """The reason, with the names it holds as ``{1}`` and ``{2}`` put in."""
        return self._worded()[1]

    def _worded(self) -> tuple[str, str]:
        if "worded" not in self.__dict__:
            notice_words.word([self])
        return self.__dict__["worded"]
