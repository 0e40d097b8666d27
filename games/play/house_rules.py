"""House rules as model fields, one column each so lists can filter on them: a game's, and those an
organiser sets for the games of an event (``games.tournaments``). The rules page says what each
means (``games/pages/templates/pages/rules/how_to_play.html``)."""

from __future__ import annotations

from django.db import models

from games.engine.rules import HouseRules

TARGET_CHOICES = [(121, "121 points"), (61, "61 points")]
PEG_OUT_ZONE_CHOICES = [(0, "Off"), (1, "Stink hole"), (5, "Last five holes")]
MATCH_GAMES_CHOICES = [(1, "Single game"), (3, "Best of 3"), (5, "Best of 5"), (7, "Best of 7")]
# A correspondence game's days for each move; 0: played at the table.
DAYS_PER_MOVE_CHOICES = [(0, "Off"), (1, "1 day"), (2, "2 days"), (3, "3 days"), (5, "5 days"), (7, "7 days")]
# The turn timer: seconds a player has for each decision (0: none); when it runs out the site
# moves for them.
TURN_TIMER_CHOICES = [(0, "Off"), (30, "30 seconds"), (60, "60 seconds"), (180, "3 minutes")]


class HouseRuleFields(models.Model):
    """The rules every game of a table or an event is played by, bar the match length and the
    number of players, which each keeps in its own way."""

    target = models.PositiveSmallIntegerField(default=121, choices=TARGET_CHOICES)
    skunks = models.BooleanField(default=True)
    triple_skunk = models.BooleanField(default=False)
    peg_out_zone = models.PositiveSmallIntegerField(default=0, choices=PEG_OUT_ZONE_CHOICES)
    manual_counting = models.BooleanField(default=False)
    muggins = models.BooleanField(default=False)
    # The ACC's way: the pone cuts the pack and the starter turns then. Off, it turns by itself.
    # Which card turns is the same either way (the deck is dealt from the game's secret), so the
    # rule words of a table leave it out.
    pone_cuts = models.BooleanField(default=True)

    class Meta:
        abstract = True

    def rules_with(self, *, match_games: int = 1, players: int = 2) -> HouseRules:
        """The engine's rules for a game of ``match_games`` between ``players`` under these."""
        return HouseRules(
            target=self.target, skunks=self.skunks, triple_skunk=self.triple_skunk,
            peg_out_zone=self.peg_out_zone, manual_counting=self.manual_counting, muggins=self.muggins,
            pone_cuts=self.pone_cuts, match_games=match_games, players=players,
        )

    def rule_words(self) -> list[str]:
        """These rules in words: "121 points", "no skunks", "stink hole", "manual counting"."""
        parts = [f"{self.target} points"]
        if not self.skunks:
            parts.append("no skunks")
        elif self.triple_skunk:
            parts.append("triple skunks")
        if self.peg_out_zone:
            parts.append(self.get_peg_out_zone_display().lower())
        if self.manual_counting:
            parts.append("manual counting" + (" with muggins" if self.muggins else ""))
        return parts


def rule_fields(rules: HouseRules) -> dict:
    """The field values of ``rules``, for a model with :class:`HouseRuleFields`."""
    return {
        "target": rules.target, "skunks": rules.skunks, "triple_skunk": rules.triple_skunk,
        "peg_out_zone": rules.peg_out_zone, "manual_counting": rules.manual_counting,
        "muggins": rules.muggins, "pone_cuts": rules.pone_cuts,
    }
