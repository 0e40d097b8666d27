"""A game at your own pace: each player's deadline and time bank (``SeatClock``) and their
vacation, which holds every deadline of theirs still."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SeatClock(models.Model):
    """A correspondence game's clock for one player. ``deadline_at`` is set while the seat is to
    move and is the whole truth of its clock: the days for this move, then the time bank, moved on
    by the player's vacation. A move keeps what was left of the bank (``bank_seconds``). Written
    only by ``games.play.services`` (``games.play.correspondence`` works it out)."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="clocks")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="clocks")
    bank_seconds = models.PositiveIntegerField(default=0)
    deadline_at = models.DateTimeField(null=True, blank=True)
    # When the opponent gave more time after the clock ran out, so the list can say so.
    extended = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="seatclock_unique_index")]
        # "Your turn": a player's games waiting on them, soonest out of time first.
        indexes = [models.Index(fields=["user", "deadline_at"], name="seatclock_user_deadline")]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.index}: {self.deadline_at or 'waiting'}"


class Vacation(models.Model):
    """A player's vacation: while ``until`` is ahead, their correspondence clocks stand still (each
    deadline was moved on by the vacation's length when it began). ``days_used``: this ``year``'s."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="vacation")
    since = models.DateTimeField(null=True, blank=True)
    until = models.DateTimeField(null=True, blank=True)
    year = models.PositiveSmallIntegerField(default=0)
    seconds_used = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["user"]

    def __str__(self) -> str:
        return f"{self.user_id}: until {self.until}"
