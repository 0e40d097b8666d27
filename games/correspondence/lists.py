"""A player's correspondence games in progress, as "Your turn" lists them: those waiting on them
first, the least time left first, then those waiting on their opponents. A handful of queries
however many games (``tests/correspondence`` counts them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from games.play import correspondence
from games.play.models import Game, SeatClock
from games.play.names import public_name


@dataclass(frozen=True)
class Row:
    game_id: int
    opponent: str
    pace: str
    left: timedelta | None  # on the player to move: this player, or the opponent
    out_of_time: bool

    @property
    def left_words(self) -> str:
        return correspondence.left_words(self.left)


def games_in_progress(user) -> tuple[list[Row], list[Row]]:
    """(waiting on ``user``, waiting on their opponents)."""
    at = correspondence.now()
    mine = list(SeatClock.objects.filter(user=user, game__status=Game.Status.ACTIVE)
                .select_related("game").only("game_id", "deadline_at", "game__days_per_move"))
    others: dict[int, list[SeatClock]] = {}
    for clock in (SeatClock.objects.filter(game_id__in=[c.game_id for c in mine]).exclude(user=user)
                  .select_related("user").only("game_id", "deadline_at", "user__username")):
        others.setdefault(clock.game_id, []).append(clock)
    waiting_on_me, waiting_on_them = [], []
    for clock in mine:
        theirs = others.get(clock.game_id, [])
        opponent = " and ".join(public_name(c.user.username) for c in theirs) or "a deleted player"
        pace = f"{clock.game.get_days_per_move_display()} a move"
        if clock.deadline_at is not None:
            left = clock.deadline_at - at
            waiting_on_me.append(Row(clock.game_id, opponent, pace, left, left <= timedelta(0)))
        else:
            due = [c.deadline_at for c in theirs if c.deadline_at is not None]
            left = min(due) - at if due else None
            out = left is not None and left <= timedelta(0)
            waiting_on_them.append(Row(clock.game_id, opponent, pace, left, out))
    far = timedelta.max
    waiting_on_me.sort(key=lambda r: (r.left, r.game_id))
    waiting_on_them.sort(key=lambda r: (r.left if r.left is not None else far, r.game_id))
    return waiting_on_me, waiting_on_them
