"""The show: counting hands and crib (automatic or manual), muggins, the peg-out zone.

Internal to the state machine; see ``game.py`` for the flow in words.
"""

from __future__ import annotations

from dataclasses import replace

from games.engine.actions import AcceptCount, CallMuggins, Count
from games.engine.errors import IllegalAction, NotYourTurn, WrongPhase
from games.engine.events import Event
from games.engine.scoring import score_hand
from games.engine.state import DONE, DUE, MUGGINS, SKIPPED, ShowEntry
from games.engine.working_copy import Draft, next_opponent, peg, set_at

MAX_CLAIM = 29  # the most any hand or crib is worth: a claim above it is not a count


def _show_steps(d) -> list[tuple[int, str]]:
    """Pone's hand (the dealer's left) first, clockwise round to the dealer's hand, then the crib."""
    n = d.players
    steps = [((d.dealer + i) % n, "hand") for i in range(1, n + 1)]
    steps.append((d.dealer, "crib"))
    return steps


def begin_show(d: Draft) -> None:
    d.phase = "show"
    d.turn = None
    zone, target = d.rules.peg_out_zone, d.rules.target
    scores, sides = d.scores, len(d.scores)
    d.show_zoned = tuple(zone > 0 and target - scores[seat % sides] <= zone for seat in range(d.players))
    _continue_show(d)


def _continue_show(d: Draft) -> None:
    """Count the next hands in order until one waits for a manual count or the show is done."""
    steps = _show_steps(d)
    manual = d.rules.manual_counting
    starter = d.starter
    while len(d.show) < len(steps):
        seat, kind = steps[len(d.show)]
        cards = d.kept[seat] if kind == "hand" else d.crib
        if d.show_zoned[seat]:
            d.show = d.show + (ShowEntry(seat, kind, cards, starter, SKIPPED),)
            d.emit(Event(seat, "peg_out_zone", cards=cards + (starter,), detail=kind))
            continue
        score = score_hand(cards, starter, crib=kind == "crib")
        if manual:
            d.show = d.show + (ShowEntry(seat, kind, cards, starter, DUE, score=score),)
            d.turn = seat
            return
        d.show = d.show + (ShowEntry(seat, kind, cards, starter, DONE, None, score.total, 0, score),)
        peg(d, seat, score.total, kind, cards + (starter,))
    d.turn = None  # everything counted: waiting for NextDeal from every seat


def _current_entry(d: Draft, status: str, seat: int, wrong_seat: str) -> ShowEntry:
    if d.phase != "show" or not d.show or d.show[-1].status != status or d.turn is None:
        raise WrongPhase("There is no count waiting for that now")
    if d.turn != seat:
        raise NotYourTurn(wrong_seat)
    return d.show[-1]


def _only_caller(d: Draft, what: str) -> str:
    if d.players == 2:
        return f"Only the opponent can {what}"
    return f"Only the opponent on the counter's left (seat {d.turn}) can {what}"


def count_hand(d: Draft, action: Count) -> None:
    """One claim per hand or crib. An under-claim stands (with muggins the opponent may take the
    rest); an over-claim is corrected to the true worth, and with muggins the opponent on the
    counter's left pegs the excess as a penalty. Refusing an over-claim instead would let a player
    count down from 29 until the site accepted, and muggins would never bite."""
    seat, points = action.seat, action.points
    if d.phase == "show" and not d.rules.manual_counting:
        raise WrongPhase("Hands are counted automatically in this game")
    entry = _current_entry(d, DUE, seat, "It is not your turn to count")
    if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= MAX_CLAIM:
        raise IllegalAction(f"Count a whole number of points from 0 to {MAX_CLAIM}")
    if points > entry.score.total:
        _over_claim(d, entry, points)
        return
    wins = d.scores[d.side_of(seat)] + points >= d.rules.target
    status = MUGGINS if d.rules.muggins and not wins else DONE
    d.show = set_at(d.show, len(d.show) - 1, replace(entry, status=status, claimed=points, awarded=points))
    peg(d, seat, points, entry.kind, entry.cards + (entry.starter,))
    if status == MUGGINS:
        d.turn = next_opponent(d, seat)  # the seat on its left; it must call muggins or accept
    else:
        _continue_show(d)


def _over_claim(d: Draft, entry: ShowEntry, claimed: int) -> None:
    seat, true = entry.seat, entry.score.total
    excess = claimed - true
    penalty = excess if d.rules.muggins else 0
    d.show = set_at(d.show, len(d.show) - 1,
                    replace(entry, status=DONE, claimed=claimed, awarded=true, muggins=penalty))
    d.emit(Event(seat, "over_count", count=claimed, detail=entry.kind))
    # The true worth is pegged first: if it takes the counter out, the game ends before any penalty.
    peg(d, seat, true, entry.kind, entry.cards + (entry.starter,))
    if penalty:
        peg(d, next_opponent(d, seat), penalty, "over_count_penalty", detail=entry.kind)
    _continue_show(d)


def call_muggins(d: Draft, action: CallMuggins) -> None:
    seat = action.seat
    entry = _current_entry(d, MUGGINS, seat, _only_caller(d, "call muggins"))
    missed = entry.score.total - entry.claimed
    d.show = set_at(d.show, len(d.show) - 1, replace(entry, status=DONE, muggins=missed))
    if missed:
        peg(d, seat, missed, "muggins")
    else:
        d.emit(Event(seat, "muggins"))
    _continue_show(d)


def accept_count(d: Draft, action: AcceptCount) -> None:
    seat = action.seat
    entry = _current_entry(d, MUGGINS, seat, _only_caller(d, "accept the count"))
    d.show = set_at(d.show, len(d.show) - 1, replace(entry, status=DONE))
    d.emit(Event(seat, "accept"))
    _continue_show(d)
