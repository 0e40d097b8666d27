"""A correspondence game's clocks: each player's deadline and time bank (``SeatClock``) and their
vacation, which holds every deadline of theirs still; what a player wants to hear about their games,
and the notices sent.

The clocks' tables are ``play_seatclock`` and ``play_vacation`` (``Meta.db_table``), the names the
database has for them."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SeatClock(models.Model):
    """A correspondence game's clock for one player. ``deadline_at`` is set while the seat is to
    move and is the whole truth of its clock: the days for this move, then the time bank, moved on
    by the player's vacation. A move keeps what was left of the bank (``bank_seconds``). Written
    only by ``games.correspondence.services`` (``games.correspondence.clock`` works it out)."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="clocks")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="clocks")
    bank_seconds = models.PositiveIntegerField(default=0)
    deadline_at = models.DateTimeField(null=True, blank=True)
    # When the opponent gave more time after the clock ran out, so the list can say so.
    extended = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "play_seatclock"
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="seatclock_unique_index")]
        # "Your turn": a player's games waiting on them, soonest out of time first.
        indexes = [models.Index(fields=["user", "deadline_at"], name="seatclock_user_deadline")]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.index}: {self.deadline_at or 'waiting'}"


class Vacation(models.Model):
    """A player's vacation: while ``until`` is ahead, their correspondence clocks stand still (each
    deadline was moved on by the vacation's length when it began). ``seconds_used``: this ``year``'s."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="vacation")
    since = models.DateTimeField(null=True, blank=True)
    until = models.DateTimeField(null=True, blank=True)
    year = models.PositiveSmallIntegerField(default=0)
    seconds_used = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "play_vacation"
        ordering = ["user"]

    def __str__(self) -> str:
        return f"{self.user_id}: until {self.until}"


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
