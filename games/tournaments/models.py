"""Tournaments: entrants, matches (one Game each, best of N inside it) and a public notice board.

Only ``games.tournaments.services`` changes a tournament once it has started; the admin calls it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.engine.rules import HouseRules
from games.play.house_rules import MATCH_GAMES_CHOICES, TURN_TIMER_CHOICES, HouseRuleFields
from games.play.models import Game
from games.play.names import public_name
from games.tournaments.pairing import Scoring

MATCH_LENGTH_CHOICES = MATCH_GAMES_CHOICES


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
        QUALIFYING = "rr_ko", "Round robin qualifying, then single elimination"

    class Status(models.TextChoices):
        UPCOMING = "upcoming", "Upcoming"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Stage(models.TextChoices):
        NONE = "", "Not started"
        ROUND_ROBIN = "rr", "Round robin"
        KNOCKOUT = "ko", "Single elimination"

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
        help_text="Round robin qualifying, then single elimination: the playoff's matches.",
    )
    qualifiers = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="How many qualify for the playoff; empty: the top quarter, rounded up (at least two).",
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

    @property
    def has_qualifying(self) -> bool:
        return self.format == self.Format.QUALIFYING

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


class EntrantQuerySet(models.QuerySet):
    def active(self) -> EntrantQuerySet:
        return self.filter(withdrawn=False)


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    registered_at = models.DateTimeField(default=timezone.now)
    seed = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="1 is the top seed. Empty: after the seeded players, by rating "
        "if there is one, else in registration order.",
    )
    withdrawn = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    qualifying_rank = models.PositiveSmallIntegerField(null=True, blank=True)

    objects = EntrantQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "seed", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entrant_unique_user"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return public_name(self.user.username)


class Match(models.Model):
    """A best-of-N match, played as one Game (the engine plays the whole series in it)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"  # a player is not known yet, or the round has not begun
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        BYE = "bye", "Bye"
        VOID = "void", "Void"

    class Decided(models.TextChoices):
        NONE = "", "-"
        PLAY = "play", "Played"
        RESIGN = "resign", "Resignation"
        FORFEIT = "forfeit", "Forfeit"
        WITHDRAWAL = "withdrawal", "Withdrawal"
        ADMIN = "admin", "Set by the organiser"
        BYE = "bye", "Bye"
        # The site resigned the game for a player: their third timeout, or the opponent's claim
        # after they were away on their turn (games.play.endings).
        TIME = "time", "On time"
        CLAIM = "claim", "Claimed: opponent absent"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    stage = models.CharField(max_length=2, choices=Tournament.Stage.choices[1:])
    round_no = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    entrant1 = models.ForeignKey(Entrant, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    entrant2 = models.ForeignKey(Entrant, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    match_games = models.PositiveSmallIntegerField(choices=MATCH_LENGTH_CHOICES, default=1)
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_matches"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    winner = models.ForeignKey(Entrant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    games1 = models.PositiveSmallIntegerField(default=0)
    games2 = models.PositiveSmallIntegerField(default=0)
    points1 = models.PositiveSmallIntegerField(default=0)
    points2 = models.PositiveSmallIntegerField(default=0)
    spread = models.SmallIntegerField(default=0, help_text="Point spread from the first player's side.")
    decided_by = models.CharField(max_length=10, choices=Decided.choices, default=Decided.NONE, blank=True)
    note = models.TextField(blank=True, help_text="Why the result is what it is (a forfeit, a correction).")
    extra_minutes = models.PositiveSmallIntegerField(default=0, help_text="Added to the forfeit grace.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-stage", "round_no", "slot"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage", "round_no", "slot"], name="match_unique_place"
            ),
            models.CheckConstraint(
                condition=models.Q(entrant1__isnull=True)
                | models.Q(entrant2__isnull=True)
                | ~models.Q(entrant1=models.F("entrant2")),
                name="match_two_different_players",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.get_stage_display()} round {self.round_no}: {self.label}"

    @property
    def label(self) -> str:
        a = self.entrant1.name if self.entrant1_id else "?"
        b = self.entrant2.name if self.entrant2_id else ("bye" if self.status == self.Status.BYE else "?")
        return f"{a} v {b}"

    @property
    def decided(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.BYE, self.Status.VOID)

    @property
    def loser(self) -> Entrant | None:
        if self.winner_id is None or self.entrant2_id is None:
            return None
        return self.entrant2 if self.winner_id == self.entrant1_id else self.entrant1

    def side_of(self, entrant_id: int) -> int | None:
        if entrant_id == self.entrant1_id:
            return 0
        if entrant_id == self.entrant2_id:
            return 1
        return None

    def forfeit_deadline(self):
        if self.started_at is None:
            return None
        return self.started_at + timezone.timedelta(
            minutes=self.tournament.forfeit_minutes + self.extra_minutes
        )

    def winner_score_text(self) -> str:
        """The games won, the winner's first: "2–1"."""
        if self.winner_id == self.entrant2_id:
            return f"{self.games2}–{self.games1}"
        return f"{self.games1}–{self.games2}"

    def winner_points_text(self) -> str:
        """The qualifying points, the winner's first: "3–0"."""
        if self.winner_id == self.entrant2_id:
            return f"{self.points2}–{self.points1}"
        return f"{self.points1}–{self.points2}"

    def result_text(self) -> str:
        """"carol wins 1–0": every "X wins a–b" on the site puts the winner's score first."""
        return f"{self.winner.name} wins {self.winner_score_text()}" if self.winner_id else ""

    def decision_note(self) -> str:
        """Why a match decided off the board went as it did, for the players of its game."""
        label = {
            self.Decided.FORFEIT: "Forfeit",
            self.Decided.WITHDRAWAL: "Withdrawal",
            self.Decided.ADMIN: "Result set by the organiser",
        }.get(self.decided_by)
        if label is None:
            return ""
        note = self.note.strip().rstrip(".")
        return f"{label}: {note}." if note else f"{label}."

    @property
    def winner_spread(self) -> int:
        return (
            -self.spread if self.winner_id is not None and self.winner_id == self.entrant2_id else self.spread
        )

    def score_text(self) -> str:
        if self.status == self.Status.BYE:
            return "bye"
        if self.status == self.Status.ACTIVE:
            return "in play"
        if self.status != self.Status.FINISHED:
            return ""
        return f"{self.games1}–{self.games2}"


class Notice(models.Model):
    """The tournament's public log: what players should know (a correction, a withdrawal...)."""

    class Kind(models.TextChoices):
        INFO = "info", "Info"
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
    text = models.CharField(max_length=300)
    reason = models.TextField(blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.text
