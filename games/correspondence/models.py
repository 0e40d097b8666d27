"""What a player wants to hear about their correspondence games, and the turn notices sent."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class NoticePreferences(models.Model):
    """A player's choices; a player without a row has the defaults."""

    class Turn(models.TextChoices):
        DAILY = "daily", "At most once a day for each game"
        EVERY = "every", "After every move"
        OFF = "off", "Never"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="notice_preferences")
    turn_notices = models.CharField(max_length=5, choices=Turn.choices, default=Turn.DAILY)
    digest = models.BooleanField(default=True, help_text="A daily email of the games waiting on the player.")
    digest_sent_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["user"]
        verbose_name_plural = "notice preferences"

    def __str__(self) -> str:
        return f"{self.user_id}: turns {self.turn_notices}, digest {'on' if self.digest else 'off'}"


class TurnNotice(models.Model):
    """One game's turn notices to one player on one day (UTC): the row is what keeps it to one a
    day, even when two moves' notices race."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    sent = models.PositiveSmallIntegerField(default=1)
    last_sent_at = models.DateTimeField()

    class Meta:
        ordering = ["-day", "game"]
        constraints = [models.UniqueConstraint(fields=["game", "user", "day"], name="turnnotice_once_a_day")]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.day}: game {self.game_id} ×{self.sent}"


class OutOfTimeNotice(models.Model):
    """The email telling a player that their opponent's time ran out (claim the win or give more
    time), once for each deadline: a deadline moved on by more time given is a new one."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    deadline = models.DateTimeField()
    sent_at = models.DateTimeField()

    class Meta:
        ordering = ["-sent_at"]
        constraints = [models.UniqueConstraint(fields=["game", "user", "deadline"], name="outoftime_once")]

    def __str__(self) -> str:
        return f"{self.user_id}: game {self.game_id} out of time at {self.deadline}"


class NoticeSend(models.Model):
    """One turn notice decided for one player, and what of it has gone. The task that sends it may
    run again (a retry after a mail server's fault, or after its worker died): what is kept here
    makes each part go once."""

    key = models.CharField(max_length=32, unique=True)  # given when the move enqueued the notice
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    decided_at = models.DateTimeField(db_index=True)
    due = models.BooleanField(
        help_text="Whether it goes at all (the player's choices, at the table, once a day).")
    email_done = models.BooleanField(default=False, help_text="Sent, or nothing to send it to.")
    pushed = models.JSONField(default=list, help_text="The subscriptions sent to for good.")

    class Meta:
        ordering = ["-decided_at"]

    def __str__(self) -> str:
        return f"{self.user_id}: game {self.game_id} at {self.decided_at:%Y-%m-%d %H:%M}"
