"""The play (pegging): ``Play`` and ``Go`` and how the turn, the go and the count resets work.

Internal to the state machine; see ``game.py`` for the flow in words.
"""

from __future__ import annotations

from games.engine.actions import Go, Play
from games.engine.cards import Card
from games.engine.errors import CardNotInHand, CountExceeds31, IllegalAction, NotYourTurn, WrongPhase
from games.engine.events import Event
from games.engine.scoring import pegging_total, score_pegging
from games.engine.show import begin_show
from games.engine.state import discard_size
from games.engine.working_copy import Draft, cards_word, peg, set_at


def fits(hand: tuple[Card, ...], count: int) -> bool:
    room = 31 - count
    return any(c.value <= room for c in hand)


def play_card(d: Draft, action: Play) -> None:
    seat, card = action.seat, action.card
    if d.phase != "play":
        raise WrongPhase(_not_play_message(d))
    if d.turn != seat:
        raise NotYourTurn("It is not your turn to play")
    hand = d.hands[seat]
    if card not in hand:
        raise CardNotInHand(f"You don't hold the {getattr(card, 'name', card)}")
    if d.count + card.value > 31:
        raise CountExceeds31(f"The count is {d.count}: the {card.name} would take it past 31")
    d.hands = set_at(d.hands, seat, tuple(c for c in hand if c != card))
    d.count += card.value
    d.series = d.series + ((seat, card),)
    d.plays = d.plays + ((seat, card),)
    d.last_player = seat
    d.emit(Event(seat, "play", cards=(card,), count=d.count))
    series = [c for _, c in d.series]
    if pegging_total(series):  # the fast check first: most cards score nothing
        for part in score_pegging(series).parts:
            peg(d, seat, part.points, part.kind, part.cards)
    if not any(d.hands):
        if d.count != 31:
            peg(d, seat, 1, "last_card", (card,))
        begin_show(d)
    elif d.count == 31:
        _reset(d, seat)
    else:
        _advance(d, seat)


def say_go(d: Draft, action: Go) -> None:
    seat = action.seat
    if d.phase != "play":
        raise WrongPhase(_not_play_message(d))
    if d.turn != seat:
        raise NotYourTurn("It is not your turn to play")
    if fits(d.hands[seat], d.count):
        raise IllegalAction(f"You can't say go: you hold a card that fits under 31 (count {d.count})")
    d.gone = set_at(d.gone, seat, True)
    d.emit(Event(seat, "say_go"))
    _advance(d, seat)


def _not_play_message(d: Draft) -> str:
    if d.phase == "discard":
        return f"You can't play a card now: lay away {cards_word(discard_size(d.players))} first"
    return "You can't play a card now: the play is over"


def _advance(d: Draft, after: int) -> None:
    """Pass the turn on from ``after``, or score the go and reset when nobody can play."""
    seat = _next_to_act(d, after)
    if seat is not None:
        d.turn = seat
        return
    last = d.last_player
    peg(d, last, 1, "go")
    _reset(d, last)


def _next_to_act(d: Draft, after: int) -> int | None:
    """The next seat clockwise that must play or say go; None when nobody can play any more.

    A seat with no cards, or that has said go in this series, is passed over. The seat that laid
    the last card never has to say go: if the turn comes back to it and it cannot play, the go
    is scored at once.
    """
    n = d.players
    for step in range(1, n + 1):
        seat = (after + step) % n
        if not d.hands[seat] or d.gone[seat]:
            continue
        if fits(d.hands[seat], d.count) or seat != d.last_player:
            return seat
        return None
    return None


def _reset(d: Draft, last: int) -> None:
    """Count back to 0; the next seat clockwise after ``last`` that still holds cards leads."""
    n = d.players
    d.count = 0
    d.series = ()
    d.last_player = None
    d.gone = (False,) * n
    d.emit(Event(None, "reset"))
    for step in range(1, n + 1):
        seat = (last + step) % n
        if d.hands[seat]:
            d.turn = seat
            return
    raise AssertionError("reset with no cards left")  # the last card ends the play before this
