"""A game: its players and house rules, its state snapshot and result, and the queries that load it.

``Game.state`` is a snapshot of the latest state for speed; only ``games.play.services`` writes it.
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

from .seats import ComputerLevel, Seat


def new_secret() -> str:
    return secrets.token_hex(32)


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


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
    lesson = models.BooleanField(
        default=False, help_text="A first game that teaches: the table explains each step (the coach).",
    )
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

    # Pass and play: a game on its creator's device, each named seat played in turn. None for any
    # other game; else {"shown": the seat whose hand the device shows (None: the pass screen is up),
    # "deal": [game_no, deal_no] it was shown in}. Written only by games.play.services.pass_play.
    pass_play = models.JSONField(null=True, blank=True, editable=False)

    # A word from whoever organised the game, shown on its board (a tournament cancelled while the
    # game was in play: it no longer counts). Play only shows it: see games.play.registry.
    notice = models.CharField(max_length=300, blank=True, editable=False)
    # Set up by an organiser (a tournament's match): it cannot be called off, and the organiser
    # has the last word on its result.
    organised = models.BooleanField(default=False, editable=False)
    # Kept to its players: not on the watch list, and a stranger may not open it as a spectator.
    private = models.BooleanField(
        default=False, help_text="Only the players see this game: it is not listed to watch.",
    )

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
        if self.pass_play is not None:
            # The device's owner plays whichever named seat it shows (games.play.pass_play decides).
            if user.pk != self.created_by_id:
                return None
            shown = self.pass_play.get("shown")
            people = [s.index for s in self.seat_list() if not s.is_computer]
            return shown if shown in people else people[0]
        for seat in self.seat_list():
            if seat.user_id == user.pk:
                return seat.index
        return None
