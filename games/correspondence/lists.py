"""A player's correspondence games in progress, as "Your turn" lists them: those waiting on them
first, the least time left first, then those waiting on their opponents. A handful of queries
however many games (``tests/correspondence`` counts them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from games.correspondence import clock
from games.correspondence.models import SeatClock, Vacation
from games.play.board.links import game_url
from games.play.house_rules import DAYS_PER_MOVE_CHOICES
from games.play.models import Game
from games.play.names import public_name
from games.play.narration import and_list


@dataclass(frozen=True)
class Row:
    game_id: int
    url: str
    opponent: str  # "against bob", or "at a table with ann, ben and cat"
    pace: str
    left: timedelta | None  # on the player to move: this player, or the opponent
    clock: str  # that player's clock in words (``clock.clock_words``)
    out_of_time: bool


PACES = {days: f"{label} a move" for days, label in DAYS_PER_MOVE_CHOICES}


def against(names: list[str]) -> str:
    """Who a game is played with, as a list of games says it.

    >>> against(["bob"]), against(["ann", "ben", "cat"])
    ('against bob', 'at a table with ann, ben and cat')
    """
    names = names or ["a deleted player"]
    return f"against {names[0]}" if len(names) == 1 else f"at a table with {and_list(names)}"


def _row(game_id: int, opponent: str, days: int, left: timedelta | None, said: str) -> Row:
    return Row(game_id, game_url("game", game_id), opponent, PACES.get(days, ""), left, said,
               left is not None and left <= timedelta(0))


def games_in_progress(user) -> tuple[list[Row], list[Row]]:
    """(waiting on ``user``, waiting on their opponents). Plain rows, no model instances: a busy
    player has hundreds of games, and building them cost more than the queries."""
    at = clock.now()
    in_progress = SeatClock.objects.filter(user=user, game__status=Game.Status.ACTIVE)
    mine = list(in_progress.values_list("game_id", "deadline_at", "game__days_per_move", "bank_seconds"))
    others: dict[int, list[tuple]] = {}
    opponents = (SeatClock.objects.filter(game_id__in=in_progress.values("game_id")).exclude(user=user)
                 .order_by("game_id", "index"))
    fields = ("game_id", "deadline_at", "user__username", "bank_seconds", "user_id")
    for game_id, deadline, name, bank, user_id in opponents.values_list(*fields):
        others.setdefault(game_id, []).append((deadline, name, bank, user_id))
    # A clock stands still while its player is on vacation: the sentence says until when.
    away = dict(Vacation.objects.filter(until__gt=at).filter(
        user_id__in=[user.pk, *{o[3] for theirs in others.values() for o in theirs}])
        .values_list("user_id", "until"))

    def words(deadline, bank: int, user_id: int, yours: bool) -> str:
        return clock.clock_words(deadline - at, timedelta(seconds=bank), yours=yours,
                                 vacation_until=away.get(user_id), at=at)

    waiting_on_me, waiting_on_them = [], []
    for game_id, deadline, days, bank in mine:
        theirs = others.get(game_id, [])
        opponent = against([public_name(name) for _, name, _, _ in theirs])
        if deadline is not None:
            said = words(deadline, bank, user.pk, True)
            waiting_on_me.append(_row(game_id, opponent, days, deadline - at, said))
        elif due := sorted((d, b, pk) for d, _, b, pk in theirs if d is not None):
            deadline, bank, pk = due[0]
            said = words(deadline, bank, pk, False)
            waiting_on_them.append(_row(game_id, opponent, days, deadline - at, said))
        else:
            waiting_on_them.append(_row(game_id, opponent, days, None, ""))
    far = timedelta.max
    waiting_on_me.sort(key=lambda r: (r.left, r.game_id))
    waiting_on_them.sort(key=lambda r: (r.left if r.left is not None else far, r.game_id))
    return waiting_on_me, waiting_on_them
