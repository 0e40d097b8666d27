"""Who sits at a game: its seats, each a player or a computer of some level, and the players'
open sockets (``Connection``), which say who is at the table."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.play.names import public_name


class ComputerLevel(models.TextChoices):
    EASY = "easy", "Easy"
    STANDARD = "standard", "Standard"
    EXPERT = "expert", "Expert"


NAME_LENGTH = 20


class Seat(models.Model):
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="seats"
    )
    computer_level = models.CharField(max_length=10, choices=ComputerLevel.choices, blank=True)
    timeouts = models.PositiveSmallIntegerField(default=0, help_text="Turn-timer expiries in this game.")
    name = models.CharField(
        max_length=NAME_LENGTH, blank=True,
        help_text="Pass and play: the name typed for this seat; the device's owner holds every such seat.",
    )

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            # One seat a player, except the named seats of a game passed round one device.
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(name=""), name="seat_unique_user"
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(computer_level=""),
                name="seat_user_or_computer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.index}: {self.display_name}"

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.user_id is None:
            return f"Computer ({self.get_computer_level_display().lower()})"
        return public_name(self.user.username)


class Connection(models.Model):
    """One open game socket. A row whose heartbeat is stale (its process died) counts as gone."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)
    # A player's last socket, once closed, is kept (until they come back) to say when they left:
    # without it a player who played and closed the tab read as one who never opened the game.
    closed_at = models.DateTimeField(null=True, blank=True)
    # The server process holding the socket (``ServerProcess``): a process that died says goodbye to
    # nobody, so its rows are closed for it once it has been silent long enough.
    process = models.CharField(max_length=64, blank=True, db_index=True)

    class Meta:
        ordering = ["game", "user"]
        indexes = [models.Index(fields=["game", "user", "last_seen"], name="connection_game_user_seen")]

    def __str__(self) -> str:
        return f"{self.user_id} on game {self.game_id}"


class ServerProcess(models.Model):
    """A server process holding game sockets, and its last sign of life: one silent for longer than
    ``presence.PROCESS_SILENT_SECONDS`` died, and its sockets' rows are closed (``presence.close_dead``)."""

    process = models.CharField(max_length=64, primary_key=True)
    beat_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-beat_at"]

    def __str__(self) -> str:
        return f"{self.process} at {self.beat_at:%Y-%m-%d %H:%M:%S}"
