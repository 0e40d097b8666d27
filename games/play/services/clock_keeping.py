"""Keeping a correspondence game's clocks with each move (``core._apply`` and ``core._start`` call
this in the move's transaction); the arithmetic is ``games.play.correspondence``'s. A computer in a
seat has no clock: a move that leaves it to act sends ``signals.computer_due``, and its turns are
made by a task (``games.play.tasks``), not in the request of the person who moved."""

from __future__ import annotations

from django.db import transaction

from games.engine import game as engine
from games.play import correspondence
from games.play.models import Game, SeatClock, Vacation
from games.play.signals import computer_due, turn_due


def start_clocks(game: Game, state: engine.GameState, *, by: int | None = None) -> None:
    """A correspondence game begins: each player's clock, with a full bank. ``by``: the player who
    started it by taking their seat, who needs no notice that it is their turn."""
    bank = correspondence.starting_bank(game.days_per_move)
    SeatClock.objects.bulk_create([
        SeatClock(game=game, index=seat.index, user_id=seat.user_id, bank_seconds=bank)
        for seat in game.seat_list() if seat.user_id is not None
    ])
    update_clocks(game, state, actor=None, quiet=by)


def update_clocks(
    game: Game, state: engine.GameState, *, actor: int | None, quiet: int | None = None
) -> None:
    """After a move by seat ``actor`` (None: the game began), stop the clocks of the seats no
    longer to move (keeping what they have left of their bank) and start those newly due. Players
    newly due hear of it (``signals.turn_due``), except the one who just moved; a computer due after
    anyone's move but a computer's (whose task plays on) is sent for (``signals.computer_due``)."""
    at = correspondence.now()
    clocks = list(SeatClock.objects.filter(game=game))
    over = state.phase == "match_over"
    due = set() if over else set(state.to_act)
    on_vacation = dict(Vacation.objects.filter(
        user_id__in=[c.user_id for c in clocks], until__gt=at).values_list("user_id", "until"))
    changed, newly = [], []
    for clock in clocks:
        was, bank = clock.deadline_at, clock.bank_seconds
        if was is not None and (clock.index == actor or clock.index not in due):
            clock.bank_seconds = correspondence.bank_after_move(
                game.days_per_move, clock.bank_seconds, was, at)
            clock.deadline_at = None
        if clock.index in due and clock.deadline_at is None:
            start = max(at, on_vacation.get(clock.user_id, at))
            clock.deadline_at = correspondence.deadline_for(game.days_per_move, clock.bank_seconds, start)
            if clock.index != actor and clock.user_id != quiet:
                newly.append(clock.user_id)
        if clock.deadline_at != was or clock.bank_seconds != bank:
            changed.append(clock)
    if changed:
        SeatClock.objects.bulk_update(changed, ["bank_seconds", "deadline_at"])
        users = [c.user_id for c in changed]
        transaction.on_commit(lambda: correspondence.forget_counts(users))
    if newly:
        turn_due.send(sender=Game, game=game, user_ids=tuple(newly))
    if _computer_due(game, state, actor):
        computer_due.send(sender=Game, game=game)


def _computer_due(game: Game, state: engine.GameState, actor: int | None) -> bool:
    # Between games of a match the next one is the people's to start, as in a live game.
    if state.phase in ("game_over", "match_over"):
        return False
    computers = {seat.index for seat in game.seat_list() if seat.is_computer}
    return actor not in computers and not computers.isdisjoint(state.to_act)
