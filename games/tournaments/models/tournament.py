"""A tournament: its format, house rules, scoring, tie-breaks, registration and where it stands.

Only ``games.tournaments.services`` changes a tournament once it has started; the admin and the
director's desk call them.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.engine.rules import HouseRules
from games.play.house_rules import MATCH_GAMES_CHOICES, TURN_TIMER_CHOICES, HouseRuleFields
from games.tournaments import naming
from games.tournaments.pairing import Scoring

MATCH_LENGTH_CHOICES = MATCH_GAMES_CHOICES

# The tie-breaks a director orders (after qualifying points, which always come first), in the
# names of ``pairing.standings``' criteria, and how the pages say them.
TIE_BREAK_WORDS = {
    "games_won": "games won",
    "spread": "point spread",
    "head_to_head": "head-to-head (two players level who met)",
    "match_wins": "matches won",
    "cut": "a cut of the cards (low card ranks first)",
}
ACC_TIE_BREAKS = ("games_won", "spread", "head_to_head", "cut")
MOST_QUALIFYING_GAMES = 50


class TournamentQuerySet(models.QuerySet):
    def upcoming(self) -> TournamentQuerySet:
        return self.filter(status=Tournament.Status.UPCOMING)

    def running(self) -> TournamentQuerySet:
        return self.filter(status=Tournament.Status.RUNNING)

    def finished(self) -> TournamentQuerySet:
        return self.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED])


class Tournament(HouseRuleFields):
    class Format(models.TextChoices):
        ROUND_ROBIN = "rr", "Round robin"
        KNOCKOUT = "ko", "Single elimination"
        QUALIFYING = "rr_ko", "Round robin, then a seeded playoff"
        ACC = "acc", "Qualifying games against different opponents, then a seeded playoff"

    class Status(models.TextChoices):
        UPCOMING = "upcoming", "Upcoming"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Stage(models.TextChoices):
        NONE = "", "Not started"
        ROUND_ROBIN = "rr", "Round robin"
        QUALIFYING = "q", "Qualifying"
        KNOCKOUT = "ko", "Single elimination"

    class Pairing(models.TextChoices):
        STANDING = "standing", "By standing: the leader meets the best player not met yet, and so on down"
        RANDOM = "random", "At random, never a rematch"

    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.ROUND_ROBIN)
    match_games = models.PositiveSmallIntegerField(
        "match length",
        choices=MATCH_LENGTH_CHOICES,
        default=1,
        help_text="Round robin and single elimination matches (the qualifying rounds of a combined event).",
    )
    playoff_match_games = models.PositiveSmallIntegerField(
        "playoff match length",
        choices=[(3, "Best of 3"), (5, "Best of 5")],
        default=3,
        help_text="Qualifying, then a playoff: the playoff's matches.",
    )
    qualifiers = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="How many qualify for the playoff; empty: the top quarter, rounded up (at least two).",
    )
    qualifying_games = models.PositiveSmallIntegerField(
        "qualifying games",
        default=9,
        validators=[MinValueValidator(1), MaxValueValidator(MOST_QUALIFYING_GAMES)],
        help_text="Qualifying games against different opponents: how many each player plays, a round "
        "at a time, each against someone not met before (a club's Grass Roots: 9; sanctioned "
        "events 12 to 22). With a longer match length, this many matches.",
    )
    pairing = models.CharField(
        "pairing of each round",
        max_length=8,
        choices=Pairing.choices,
        default=Pairing.STANDING,
        help_text="Qualifying games against different opponents: how each round is paired. In an "
        "odd field one player has a bye (a win, no spread), never a second while anyone has none.",
    )
    tie_breaks = models.CharField(
        max_length=80,
        default=",".join(ACC_TIE_BREAKS),
        help_text="Players level on qualifying points are ranked by these, in this order.",
    )

    # House rules for every game are HouseRuleFields'. Tournament games give no discard hints.
    rated = models.BooleanField(default=False)

    # Qualifying points (ACC): a game won 2, a skunk 3, a double skunk a setting; a loss 0.
    win_points = models.PositiveSmallIntegerField(default=2)
    skunk_points = models.PositiveSmallIntegerField(default=3)
    double_skunk_points = models.PositiveSmallIntegerField(default=3)

    registration_opens = models.DateTimeField(null=True, blank=True, help_text="Empty: open now.")
    registration_closes = models.DateTimeField(null=True, blank=True, help_text="Empty: until the start.")
    max_entrants = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: no limit.")
    forfeit_minutes = models.PositiveSmallIntegerField(
        "forfeit grace (minutes)",
        default=5,
        help_text="A player who has not moved this long after their match game was created may be "
        "claimed to have forfeited it.",
    )
    turn_timer = models.PositiveSmallIntegerField(
        default=0,
        choices=TURN_TIMER_CHOICES,
        help_text="Per decision, in every game. When it runs out the site moves for the player; "
        "their third timeout loses the match on time.",
    )
    auto_advance = models.BooleanField(
        default=True,
        help_text="Start the next round as soon as a round is complete (off: the admin advances).",
    )

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING, db_index=True)
    stage = models.CharField(max_length=2, choices=Stage.choices, default=Stage.NONE, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    champion = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The director's pause: nothing starts by itself and no forfeit is applied until they resume.
    paused_at = models.DateTimeField(null=True, blank=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match_games__in=[1, 3, 5, 7]), name="tournament_match_games"
            ),
            models.CheckConstraint(condition=models.Q(target__in=[121, 61]), name="tournament_target_valid"),
            models.CheckConstraint(
                condition=models.Q(triple_skunk=False) | models.Q(skunks=True),
                name="tournament_triple_skunk_needs_skunks",
            ),
            models.CheckConstraint(
                condition=models.Q(muggins=False) | models.Q(manual_counting=True),
                name="tournament_muggins_needs_manual_counting",
            ),
            models.CheckConstraint(
                condition=models.Q(qualifying_games__gte=1, qualifying_games__lte=MOST_QUALIFYING_GAMES),
                name="tournament_qualifying_games_range",
            ),
            models.CheckConstraint(
                condition=models.Q(registration_opens__isnull=True)
                | models.Q(registration_closes__isnull=True)
                | models.Q(registration_closes__gt=models.F("registration_opens")),
                name="tournament_registration_window",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    def clean(self) -> None:
        if self.triple_skunk and not self.skunks:
            raise ValidationError({"triple_skunk": "Triple skunks need skunks on."})
        if self.muggins and not self.manual_counting:
            raise ValidationError({"muggins": "Muggins needs manual counting."})
        if self.rated and self.manual_counting:
            raise ValidationError({"manual_counting": "Rated events count automatically, as rated games do."})
        if (
            self.registration_opens
            and self.registration_closes
            and (self.registration_closes <= self.registration_opens)
        ):
            raise ValidationError({"registration_closes": "Registration must close after it opens."})
        if self.qualifiers is not None and self.qualifiers < 2:
            raise ValidationError({"qualifiers": "At least two players qualify (a final)."})
        names = [n for n in self.tie_breaks.split(",") if n]
        if len(set(names)) != len(names) or any(n not in TIE_BREAK_WORDS for n in names):
            listed = ", ".join(TIE_BREAK_WORDS)
            raise ValidationError({"tie_breaks": f"List each tie-break once, from: {listed}."})

    @property
    def has_qualifying(self) -> bool:
        """A qualifying stage, then a seeded playoff (a round robin's, or the ACC's games)."""
        return self.format in (self.Format.QUALIFYING, self.Format.ACC)

    @property
    def rounds_stage(self) -> str:
        """The stage of this event's rounds before any bracket: a round robin's, or qualifying's."""
        return self.Stage.QUALIFYING if self.format == self.Format.ACC else self.Stage.ROUND_ROBIN

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def criteria(self) -> tuple[str, ...]:
        """The standings' order: qualifying points, then the director's tie-breaks, then a cut of
        the cards (always last, if not listed: a tie across the qualifying line must be broken)."""
        chosen = tuple(n for n in self.tie_breaks.split(",") if n in TIE_BREAK_WORDS)
        return ("points", *chosen, *(() if "cut" in chosen else ("cut",)))

    def knockout_rounds(self) -> int:
        """How many rounds the bracket has (0 before it is drawn)."""
        return (
            self.matches.filter(stage=self.Stage.KNOCKOUT)
            .order_by("-round_no").values_list("round_no", flat=True).first() or 0
        )

    def round_name(self, stage: str, round_no: int, ko_rounds: int | None = None) -> str:
        """The one name of round ``round_no`` of ``stage`` (``naming.round_name``), capitalised to head
        a line; ``ko_rounds`` (the bracket's rounds) saves a query where the caller knows it."""
        if stage == self.Stage.KNOCKOUT:
            rounds = self.knockout_rounds() if ko_rounds is None else ko_rounds
            return naming.round_name(round_no, knockout_rounds=rounds, playoff=self.has_qualifying)
        if self.format == self.Format.ACC:
            return naming.round_name(round_no, qualifying_of=self.qualifying_games)
        return naming.round_name(round_no)

    def stage_text(self, ko_rounds: int | None = None) -> str:
        """Where a running event stands, as its pages say it: "round 3", "playoff semi-finals"."""
        if self.current_round == 0:
            return "the first round is being paired"
        return naming.lower_first(self.round_name(self.stage, self.current_round, ko_rounds))

    def tie_break_text(self) -> str:
        """"games won, then point spread, then ...": the tie-breaks as the pages say them."""
        return ", then ".join(TIE_BREAK_WORDS[n] for n in self.criteria()[1:])

    def format_text(self) -> str:
        """The format as the tournament page states it, with the numbers that make it this event."""
        text = self.get_format_display()
        if self.format == self.Format.ACC:
            games = self.qualifying_games
            way = "by standing" if self.pairing == self.Pairing.STANDING else "at random"
            text = (f"{games} qualifying game{'s' if games != 1 else ''}, each against a different "
                    f"opponent, each round paired {way}, then a seeded playoff")
        if self.has_qualifying:
            text += f" (top {self.qualifiers if self.qualifiers else 'quarter'} qualify)"
        return text

    @property
    def scoring(self) -> Scoring:
        return Scoring(win=self.win_points, skunk=self.skunk_points, double_skunk=self.double_skunk_points)

    def rules_for(self, match_games: int) -> HouseRules:
        return self.rules_with(match_games=match_games)

    def rules_summary(self) -> list[str]:
        parts = self.rule_words()
        if not self.manual_counting:
            parts.append("automatic counting")
        if self.turn_timer:
            parts.append(f"{self.get_turn_timer_display()} a move")
        return parts

    def match_length_text(self) -> str:
        text = self.get_match_games_display().lower()
        if self.has_qualifying:
            return f"qualifying: {text}; playoff: {self.get_playoff_match_games_display().lower()}"
        return text

    def registration_open(self, now=None) -> bool:
        now = now or timezone.now()
        if self.status != self.Status.UPCOMING:
            return False
        if self.registration_opens and now < self.registration_opens:
            return False
        return not (self.registration_closes and now >= self.registration_closes)

    def is_full(self) -> bool:
        return self.max_entrants is not None and self.entrants.active().count() >= self.max_entrants
