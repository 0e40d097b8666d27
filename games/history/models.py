"""Past games: one row per seat of each finished game (lists, filters, statistics) and ratings.

The Move log stays the truth. ``PlayerGame`` rows and ``Round.summary`` are derived from it when a
game finishes (``games.history.receivers``) and can be rebuilt at any time with
``manage.py history_rebuild``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.play.game_result import final_result_of
from games.play.models import Game
from games.play.registry import organised


class PlayerGameQuerySet(models.QuerySet):
    def online(self) -> PlayerGameQuerySet:
        return self.filter(vs_computer=False)

    def vs_computer(self) -> PlayerGameQuerySet:
        return self.filter(vs_computer=True)

    def of(self, user) -> PlayerGameQuerySet:
        return self.filter(user=user)


def final_scores(result: dict | None) -> list[int]:
    """A finished game's last scores, one per side (``Game.result``, or as ``final_result`` reads it:
    the last game of a match; empty for a result entered without scores)."""
    result = final_result_of(result) or {}
    games = result.get("games") or []
    return list(games[-1]["scores"] if games else result.get("scores") or [])


class PlayerGame(models.Model):
    """One seat of one finished game (a single game or a whole match), two, three or four players.

    Scores belong to *sides* (with four players the partners share one; otherwise a side is a
    seat): ``score`` is this seat's side's final score in the last game played, ``opponent_score``
    the best of the other sides' (with two players simply the opponent's), and ``margin`` the sum
    over the match's games of (own score - that best other score), so for a single game of two it
    is the plain margin (a game resigned by the side ahead counts 0: ``summaries.game_margin``).
    ``result`` is the side's: partners both win or both lose. With three or
    four players ``opponent`` is empty and ``opponent_name`` names every opposing seat; with four
    ``partner`` is the seat opposite. The per-deal point columns count what *this seat* scored in
    *complete* deals only (the show was counted to the end), so averages per deal are not dragged
    down by a deal cut short by the win; "pone" there means any deal the seat did not deal.
    """

    class Result(models.TextChoices):
        WIN = "win", "Won"
        LOSS = "loss", "Lost"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="player_games")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="history_games",
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    opponent_name = models.CharField(max_length=500)
    players = models.PositiveSmallIntegerField(default=2, help_text="Seats at the table: 2, 3 or 4.")
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    partner_name = models.CharField(max_length=150, blank=True, help_text="Four players: the seat opposite.")
    vs_computer = models.BooleanField()
    rated = models.BooleanField(default=False)
    target = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField(db_index=True)
    duration = models.DurationField(null=True, blank=True)

    result = models.CharField(max_length=4, choices=Result.choices)
    resigned = models.BooleanField(default=False, help_text="The match ended by a resignation (either side).")
    score = models.PositiveSmallIntegerField()
    opponent_score = models.PositiveSmallIntegerField()
    margin = models.SmallIntegerField()
    games_won = models.PositiveSmallIntegerField(default=0)
    games_lost = models.PositiveSmallIntegerField(default=0)
    skunks_given = models.PositiveSmallIntegerField(default=0)
    skunks_taken = models.PositiveSmallIntegerField(default=0)
    double_skunks_given = models.PositiveSmallIntegerField(default=0)
    double_skunks_taken = models.PositiveSmallIntegerField(default=0)
    deals = models.PositiveSmallIntegerField(default=0, help_text="Deals started, complete or not.")
    entered = models.BooleanField(
        default=False,
        help_text="The director entered the result (games.play.game_result): the cards did not decide "
        "it, and the statistics per deal leave the game out.",
    )

    # From the replay of the log; all zero when the log could not be replayed (replayed=False).
    replayed = models.BooleanField(default=False)
    complete_deals_dealer = models.PositiveSmallIntegerField(default=0)
    complete_deals_pone = models.PositiveSmallIntegerField(default=0)
    pegging_dealer = models.PositiveIntegerField(default=0)
    pegging_pone = models.PositiveIntegerField(default=0)
    hand_dealer = models.PositiveIntegerField(default=0)
    hand_pone = models.PositiveIntegerField(default=0)
    crib = models.PositiveIntegerField(default=0)
    best_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    hands_28 = models.PositiveSmallIntegerField(default=0)
    hands_29 = models.PositiveSmallIntegerField(default=0)

    objects = PlayerGameQuerySet.as_manager()

    class Meta:
        ordering = ["-finished_at", "-game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="playergame_unique_seat"),
            models.CheckConstraint(  # a table of three or four may mix people and computers
                condition=models.Q(user__isnull=False) | models.Q(vs_computer=True) | models.Q(players__gt=2),
                name="playergame_computer_seat_only_vs_computer",
            ),
        ]
        indexes = [models.Index(fields=["user", "-finished_at"], name="playergame_user_date")]

    def __str__(self) -> str:
        who = self.user.username if self.user_id else "Computer"
        return f"{self.game_id}/{self.seat}: {who} {self.get_result_display().lower()} v {self.opponent_name}"

    @property
    def won(self) -> bool:
        return self.result == self.Result.WIN

    @property
    def side(self) -> int:
        """The side this seat scored for (``seat % sides``)."""
        return self.seat % (2 if self.players == 4 else self.players)

    @property
    def score_line(self) -> str:
        """``121–95``: own score first, then the other sides' clockwise (needs ``game`` loaded for three
        or four players); "—" for a result the director entered without scores."""
        target = self.target
        if self.entered and not (self.score or self.opponent_score):
            return "—"
        if self.players == 2:
            return f"{min(self.score, target)}\u2013{min(self.opponent_score, target)}"
        final = final_scores(self.game.result)
        if not final:
            return f"{min(self.score, target)}\u2013{min(self.opponent_score, target)}"
        sides, me = len(final), self.side
        return "\u2013".join(str(min(final[(me + k) % sides], target)) for k in range(sides))

    @property
    def skunk_label(self) -> str:
        """``"skunked them"`` / ``"skunked"`` (with double), empty for none."""
        if self.double_skunks_given:
            return "double skunk given"
        if self.skunks_given:
            return "skunk given"
        if self.double_skunks_taken:
            return "double skunk taken"
        if self.skunks_taken:
            return "skunk taken"
        return ""


class Pool(models.IntegerChoices):
    """Rating pools: 121-point and 61-point games are rated separately, and games at your own pace
    (correspondence) apart from those played at the table: the game length plus ``CORRESPONDENCE``."""

    LONG = 121, "121 points"
    SHORT = 61, "61 points"
    CORRESPONDENCE_LONG = 1121, "121 points, at your own pace"
    CORRESPONDENCE_SHORT = 1061, "61 points, at your own pace"


CORRESPONDENCE = 1000


class Rating(models.Model):
    """A player's current Glicko-2 rating in one pool (``games.history.glicko2``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    pool = models.PositiveSmallIntegerField(choices=Pool.choices)
    rating = models.FloatField(default=1500.0)
    rd = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    PROVISIONAL_RD = 110.0

    class Meta:
        ordering = ["pool", "-rating"]
        constraints = [models.UniqueConstraint(fields=["user", "pool"], name="rating_unique_pool")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.pool}: {self.rating:.0f} ±{self.rd:.0f}"

    @property
    def provisional(self) -> bool:
        """Too few games to trust (lichess's rule of thumb: a deviation above 110)."""
        return self.rd > self.PROVISIONAL_RD


class RatingChange(models.Model):
    """One rating update: a finished rated game (one Glicko-2 rating period) for one player."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    pool = models.PositiveSmallIntegerField(choices=Pool.choices)
    at = models.DateTimeField()
    score = models.FloatField(help_text="Games won in this period (each game of a match counts).")
    results = models.PositiveSmallIntegerField(help_text="Results in this period.")
    rating_before = models.FloatField()
    rd_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    rd_after = models.FloatField()
    volatility_after = models.FloatField()

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="ratingchange_unique_player")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.user_id}: {self.rating_before:.0f} -> {self.rating_after:.0f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class GameAnalysis(models.Model):
    """The after-game analyses of a finished game of two, made once by a task when the game ends
    (``games.history.tasks``): each discard and each card laid in the play against the expert's
    best, with per-seat totals (``analysis.discard_report``, ``play_analysis.play_report``). The
    record only reads this row; until it exists the record says the analysis is being prepared."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis")
    discards = models.JSONField(help_text="Verdicts and totals of the lay-aways.")
    pegging = models.JSONField(help_text="Verdicts and totals of the cards laid in the play.")
    made_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-made_at"]
        verbose_name_plural = "game analyses"

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"


def with_organisers(rows: list[PlayerGame]) -> list[PlayerGame]:
    """Each row's ``organised``: the event its game was played for (``games.play.registry``), asked
    once for the whole list."""
    events = organised(row.game_id for row in rows)
    for row in rows:
        row.organised = events.get(row.game_id)
    return rows
