"""Games, seats, deals and the append-only move log.

The ``Move`` log is the truth: replaying it through the engine from ``Game.secret`` rebuilds any
state. ``Game.state`` is a snapshot of the latest state for speed; only ``games.play.services`` writes it.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.engine.rules import HouseRules
from games.infra import children
from games.play.house_rules import (
    DAYS_PER_MOVE_CHOICES,
    MATCH_GAMES_CHOICES,
    TURN_TIMER_CHOICES,
    HouseRuleFields,
)
from games.play.names import public_name


def new_secret() -> str:
    return secrets.token_hex(32)


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class ComputerLevel(models.TextChoices):
    EASY = "easy", "Easy"
    STANDARD = "standard", "Standard"
    EXPERT = "expert", "Expert"


class GameQuerySet(models.QuerySet):
    def for_user(self, user) -> GameQuerySet:
        return self.filter(seats__user=user).distinct()

    def in_progress(self) -> GameQuerySet:
        return self.filter(status=Game.Status.ACTIVE)

    def finished(self) -> GameQuerySet:
        return self.filter(status=Game.Status.FINISHED)

    def open_seeks(self) -> GameQuerySet:
        return self.filter(status=Game.Status.WAITING, invited__isnull=True, vs_computer=False)

    def with_computers(self) -> GameQuerySet:
        return self.filter(seats__user__isnull=True).distinct()

    def with_seats(self) -> GameQuerySet:
        """Seats and their users in one query: a board asks for them a dozen times per render."""
        return self.prefetch_related(models.Prefetch("seats", queryset=Seat.objects.select_related("user")))

    def for_player(self, game_id: int, user) -> Game | None:
        """The game with its seats, if ``user`` holds one of them (sockets render only for players)."""
        game = self.for_play(game_id)
        return game if game is not None and game.seat_of(user) is not None else None

    def for_play(self, game_id: int, *, lock: bool = False) -> Game | None:
        """The game with its seats and their players' names, as ``with_seats`` gives them, for the
        two hot paths (a move, and each push a socket renders), in one plain statement
        (``games.infra.children``: about a sixth of a move's CPU, bench.move). A player loaded here
        has only ``id`` and ``username``; anything else of them would be read when asked for, a query
        each (``tests/play/test_hot_path.py`` counts a push's statements at tables of two and four).
        ``lock``: the row lock of a move, on the game's row alone."""
        from django.contrib.auth import get_user_model

        return children.get_with_children(
            Game, game_id, "seats", order_by="index", related="user",
            related_field=get_user_model().USERNAME_FIELD, using=self.db, lock=lock,
        )


def check_for_play(**kwargs) -> list:
    """A system check (registered by the app): ``for_play`` can still read a game's seats in one
    statement, so a new ``Seat`` field of a kind it does not carry fails at start-up, not on a move."""
    from django.contrib.auth import get_user_model

    return children.check(Game, "seats", related="user", related_field=get_user_model().USERNAME_FIELD)


class Game(HouseRuleFields):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for an opponent"
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    vs_computer = models.BooleanField(default=False)
    computer_level = models.CharField(max_length=10, choices=ComputerLevel.choices, blank=True)
    rated = models.BooleanField(default=False)
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations",
        help_text="Only this player may accept (an invitation); empty for an open seek.",
    )
    invitees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="table_invitations",
        help_text="Players invited to a seat at a table of three or four.",
    )
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True, editable=False)

    # The house rules are HouseRuleFields'; the match length and the table size are a game's own.
    match_games = models.PositiveSmallIntegerField(default=1, choices=MATCH_GAMES_CHOICES)
    hints = models.BooleanField(default=False)
    players = models.PositiveSmallIntegerField(
        default=2, choices=[(2, "Two players"), (3, "Three players"), (4, "Four players (partners)")]
    )
    seat_plan = models.JSONField(
        null=True, blank=True,
        help_text="Tables of three or four: what fills each seat, e.g. {'kind': 'open'|'invite'|'computer'}.",
    )
    turn_timer = models.PositiveSmallIntegerField(
        default=0, choices=TURN_TIMER_CHOICES,
        help_text="Seconds per decision; when it runs out the site moves for the player.",
    )
    turn_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the current decision began."
    )
    days_per_move = models.PositiveSmallIntegerField(
        default=0, choices=DAYS_PER_MOVE_CHOICES,
        help_text="A correspondence game: days for each move, on each player's own clock (SeatClock); "
                  "0 for a game played at the table.",
    )

    version = models.PositiveIntegerField(default=0)
    # Kept beside the snapshot so a move and a push need not ask the Move log: the number of the
    # latest Move (the next one is this + 1) and what it said (its note, then its events).
    move_count = models.PositiveIntegerField(default=0, editable=False)
    last_events = models.JSONField(default=list, blank=True, editable=False)
    state = models.JSONField(null=True, blank=True)
    secret = models.CharField(max_length=64, default=new_secret, editable=False)
    winner_seat = models.SmallIntegerField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True, help_text="Final scores, skunk, match score.")
    # A second press of a finished game's Rematch button goes to the game the first one made.
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches", editable=False
    )

    # A word from whoever organised the game, shown on its board (a tournament cancelled while the
    # game was in play: it no longer counts). Play only shows it: see games.play.registry.
    notice = models.CharField(max_length=300, blank=True, editable=False)
    # Set up by an organiser (a tournament's match): it cannot be called off, and the organiser
    # has the last word on its result.
    organised = models.BooleanField(default=False, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(target__in=[121, 61]), name="game_target_valid"),
            models.CheckConstraint(
                condition=models.Q(muggins=False) | models.Q(manual_counting=True),
                name="game_muggins_needs_manual_counting",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    @property
    def house_rules(self) -> HouseRules:
        return self.rules_with(match_games=self.match_games, players=self.players)

    def seat_list(self) -> list[Seat]:
        """The game's seats in seat order. ``for_play`` caches them on the game: read that list as
        it is, since ``self.seats`` builds a related manager on every call (a few a board, 1-2% of a
        worker under load)."""
        cached = getattr(self, "_prefetched_objects_cache", {}).get("seats")
        if cached is not None and cached._result_cache is not None:
            return cached._result_cache
        return sorted(self.seats.all(), key=lambda s: s.index)

    @property
    def has_computer(self) -> bool:
        return any(seat.user_id is None for seat in self.seat_list())

    @property
    def plan(self) -> list[dict]:
        """What fills each seat; a two-player seek is a creator and one open or invited seat."""
        if self.seat_plan:
            return self.seat_plan
        second = {"kind": "invite", "user": self.invited_id} if self.invited_id else {"kind": "open"}
        return [{"kind": "creator", "user": self.created_by_id}, second]

    def open_seat_indexes(self, user=None, *, with_link: bool = False) -> list[int]:
        """Seats of a waiting table that ``user`` could take: an invitation to them first, then open
        seats. The shareable link (``with_link``) also opens a two-player invitation to its holder."""
        taken = {seat.index for seat in self.seats.all()}
        mine, free = [], []
        for index, spot in enumerate(self.plan):
            if index in taken:
                continue
            if spot["kind"] == "invite" and user is not None and spot.get("user") == user.pk:
                mine.append(index)
            elif spot["kind"] == "open" or (spot["kind"] == "invite" and with_link and not self.seat_plan):
                free.append(index)
        return mine + free

    def rules_summary(self) -> list[str]:
        """House rules in words, for the lobby and the board."""
        parts = self.rule_words()
        if self.players == 3:
            parts.insert(0, "three players")
        elif self.players == 4:
            parts.insert(0, "four players, partners")
        if self.match_games > 1:
            parts.append(self.get_match_games_display().lower())
        if self.hints:
            parts.append("discard hints")
        return parts

    def offer_terms(self) -> list[str]:
        """An online game's terms as the lobby lists them for everyone alike: the house rules,
        rated or casual, and the turn timer."""
        timer = [f"{self.turn_timer} s a move"] if self.turn_timer else []
        if self.days_per_move:
            timer = [f"at your own pace, {self.get_days_per_move_display()} a move"]
        return [*self.rules_summary(), "rated" if self.rated else "casual", *timer]

    def seat_names(self) -> list[str]:
        """Each seat's name in seat order. Computers of one level at one table are numbered
        ("Computer 1 (easy)", "Computer 2 (easy)") so players can tell them apart."""
        seats = self.seat_list()
        names = [s.display_name for s in seats]
        numbered: dict[str, int] = {}
        out = []
        for seat, name in zip(seats, names, strict=True):
            if seat.is_computer and names.count(name) > 1:
                numbered[name] = numbered.get(name, 0) + 1
                name = f"Computer {numbered[name]} ({seat.get_computer_level_display().lower()})"
            out.append(name)
        return out

    def seat_of(self, user) -> int | None:
        """The seat index ``user`` holds in this game, or None for a stranger."""
        if not getattr(user, "is_authenticated", False):
            return None
        for seat in self.seat_list():
            if seat.user_id == user.pk:
                return seat.index
        return None


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="seats"
    )
    computer_level = models.CharField(max_length=10, choices=ComputerLevel.choices, blank=True)
    timeouts = models.PositiveSmallIntegerField(default=0, help_text="Turn-timer expiries in this game.")

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
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
        if self.user_id is None:
            return f"Computer ({self.get_computer_level_display().lower()})"
        return public_name(self.user.username)


class Move(models.Model):
    """One action, in order. Append-only: never updated or deleted while the game exists."""

    # No index of its own: move_unique_seq (game, seq) starts with the game and serves every
    # lookup by game; a second index cost every move's INSERT another index entry.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list, help_text="What the engine said: replaying the log rebuilds it.")
    note = models.JSONField(
        null=True, blank=True, help_text="The site's own word on the move (a timeout, a claimed win)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    by_timeout = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} seat {self.seat}: {self.action.get('type')}"


class Round(models.Model):
    """One deal: the commitment to its shuffle is public from the start, the seed after the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    game_no = models.PositiveSmallIntegerField()
    deal_no = models.PositiveSmallIntegerField()
    dealer = models.SmallIntegerField()
    commitment = models.CharField(max_length=64)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["game", "game_no", "deal_no"]
        constraints = [
            models.UniqueConstraint(fields=["game", "game_no", "deal_no"], name="round_unique_deal")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} game {self.game_no} deal {self.deal_no}"


class Connection(models.Model):
    """One open game socket. A row whose heartbeat is stale (its process died) counts as gone."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)
    # A player's last socket, once closed, is kept (until they come back) to say when they left:
    # without it a player who played and closed the tab read as one who never opened the game.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "user"]
        indexes = [models.Index(fields=["game", "user", "last_seen"], name="connection_game_user_seen")]

    def __str__(self) -> str:
        return f"{self.user_id} on game {self.game_id}"


class SeatClock(models.Model):
    """A correspondence game's clock for one player. ``deadline_at`` is set while the seat is to
    move and is the whole truth of its clock: the days for this move, then the time bank, moved on
    by the player's vacation. A move keeps what was left of the bank (``bank_seconds``). Written
    only by ``games.play.services`` (``games.play.correspondence`` works it out)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="clocks")
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
