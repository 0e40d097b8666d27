from __future__ import annotations

from django.conf import settings
from django.db import models


class TablePreferences(models.Model):
    """How the card table behaves for one player, wherever they sit down: sound off until they
    turn it on (a page must not start making noise unasked), the table's motion on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_preferences"
    )
    sound = models.BooleanField(default=False, help_text="Short sounds for a card, a peg and your turn.")
    motion = models.BooleanField(default=True, help_text="Cards and pegs move across the table.")
    # How the player last started a game against the computer: the next one starts the same way.
    computer_level = models.CharField(
        max_length=10, blank=True, help_text="The computer's strength last time.",
    )
    computer_rules = models.JSONField(
        default=dict, blank=True,
        help_text="The house rules (and hints) of the last game against the computer.",
    )

    class Meta:
        ordering = ["user_id"]
        verbose_name_plural = "table preferences"

    def __str__(self) -> str:
        return f"{self.user}: sound {'on' if self.sound else 'off'}, motion {'on' if self.motion else 'off'}"
