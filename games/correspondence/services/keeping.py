"""Keeping a correspondence game's clocks with each move, in the move's transaction (play tells of
the game begun and of each move: ``receivers``); the arithmetic is ``games.correspondence.clock``'s.
A computer in a seat has no clock."""

from __future__ import annotations

from django.db import transaction

from games.correspondence import clock, turn_count
from games.correspondence.models import SeatClock, Vacation
from games.engine import game as engine
from games.play.models import Game


def start_clocks(game: Game, state: engine.GameState, *, by: int | None = None) -> tuple[int, ...]:
    """A correspondence game begins: each player's clock, with a full bank. ``by``: the player who
    started it by taking their seat, who needs no notice that it is their turn. Returns the players
    to tell it is their turn."""
    bank = clock.starting_bank(game.days_per_move)
    SeatClock.objects.bulk_create([
        SeatClock(game=game, index=seat.index, user_id=seat.user_id, bank_seconds=bank)
        for seat in game.seat_list() if seat.user_id is not None
    ])
    return update_clocks(game, state, actor=None, quiet=by)


def update_clocks(
    game: Game, state: engine.GameState, *, actor: int | None, quiet: int | None = None
) -> tuple[int, ...]:
    """After a move by seat ``actor`` (None: the game began), stop the clocks of the seats no
    longer to move (keeping what they have left of their bank) and start those newly due. Returns
    the players newly due, to tell it is their turn, but for the one who just moved and ``quiet``
    (the person whose request made the move, at the board)."""
    at = clock.now()
    seat_clocks = list(SeatClock.objects.filter(game=game))
    over = state.phase == "match_over"
    due = set() if over else set(state.to_act)
    on_vacation = dict(Vacation.objects.filter(
        user_id__in=[c.user_id for c in seat_clocks], until__gt=at).values_list("user_id", "until"))
    changed, newly = [], []
    for seat_clock in seat_clocks:
        was, bank = seat_clock.deadline_at, seat_clock.bank_seconds
        if was is not None and (seat_clock.index == actor or seat_clock.index not in due):
            seat_clock.bank_seconds = clock.bank_after_move(
                game.days_per_move, seat_clock.bank_seconds, was, at)
            seat_clock.deadline_at = None
        if seat_clock.index in due and seat_clock.deadline_at is None:
            start = max(at, on_vacation.get(seat_clock.user_id, at))
            seat_clock.deadline_at = clock.deadline_for(game.days_per_move, seat_clock.bank_seconds, start)
            if seat_clock.index != actor and seat_clock.user_id != quiet:
                newly.append(seat_clock.user_id)
        if seat_clock.deadline_at != was or seat_clock.bank_seconds != bank:
            changed.append(seat_clock)
    if changed:
        SeatClock.objects.bulk_update(changed, ["bank_seconds", "deadline_at"])
        users = [c.user_id for c in changed]
        transaction.on_commit(lambda: turn_count.forget_counts(users))
    return tuple(newly)
