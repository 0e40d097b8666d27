"""Entrants, their matches (one Game each, best of N inside it) and the audit of results the
director set or corrected."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.play.models import Game
from games.play.names import public_name
from games.tournaments.models.tournament import MATCH_LENGTH_CHOICES, Tournament


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
    cut_card = models.CharField(
        max_length=3,
        blank=True,
        help_text="The card this player cut to break a tie in the standings (A, 2-10, J, Q, K), as "
        "the director recorded it.",
    )

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
        ADMIN = "admin", "Entered by the director"
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
    game_scores = models.CharField(
        max_length=120,
        blank=True,
        help_text="The game scores the director entered, the first player's first: \"121-97, 88-121\".",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The id of the match's game whose board each player was last served: "your match is ready" until
    # it is the match's current game (an id, not a key: a mark, and a finished game may go).
    board_served_game1 = models.BigIntegerField(null=True, blank=True, editable=False)
    board_served_game2 = models.BigIntegerField(null=True, blank=True, editable=False)

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
        return f"{self.tournament} {self.round_name}: {self.label}"

    @property
    def round_name(self) -> str:
        """The round's one name (``Tournament.round_name``): "Round 2", "Playoff semi-finals"."""
        return self.tournament.round_name(self.stage, self.round_no)

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

    def winner_game_scores_text(self) -> str:
        """The game scores the director entered (stored the first player's first), the winner's
        first like every other score beside them: "121–97, 88–121"."""
        flip = self.winner_id is not None and self.winner_id == self.entrant2_id
        games = []
        for game in self.game_scores.split(","):
            a, sep, b = game.strip().partition("-")
            if not sep:  # not a score written as a-b: shown as entered
                games.append(game.strip())
                continue
            a, b = a.strip(), b.strip()
            games.append(f"{b}–{a}" if flip else f"{a}–{b}")
        return ", ".join(g for g in games if g)

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
            self.Decided.ADMIN: "Result entered by the director",
        }.get(self.decided_by)
        if label is None:
            return ""
        note = self.note_text.strip().rstrip(".")
        return f"{label}: {note}." if note else f"{label}."

    @property
    def note_text(self) -> str:
        """The note with its players' names: a note the site writes names them as ``{1}`` and
        ``{2}`` (entrant 1 and 2), so a name is today's (a deleted player's too)."""
        note = self.note
        for i, entrant_id in enumerate((self.entrant1_id, self.entrant2_id), start=1):
            token = "{" + str(i) + "}"
            if token in note:
                entrant = self.entrant1 if i == 1 else self.entrant2
                note = note.replace(token, entrant.name if entrant_id else "?")
        return note

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


class ResultChange(models.Model):
    """One result the director set or corrected: who, when, what it was and what it became. Kept
    for good (a correction's audit), shown with the match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    before = models.CharField(max_length=200)
    after = models.CharField(max_length=200)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["match", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.by or 'the site'}: {self.before} → {self.after}"

    @property
    def correction(self) -> bool:
        return not self.before.startswith(("not decided", "in play", "waiting"))
