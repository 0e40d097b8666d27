"""Shared helpers for the game state machine tests (test_game_*.py): the stacked deals of two, three
and four players, applying and refusing actions, and what a seat may see."""

from __future__ import annotations

import json

import pytest

from games.engine.actions import Discard, Play
from games.engine.cards import parse_card, parse_cards
from games.engine.events import Event
from games.engine.game import apply
from games.engine.rules import HouseRules
from games.engine.state import GameState
from games.engine.testing import start_deal
from games.engine.view import view

# A deal used by several tests. Dealer is seat 0, pone seat 1. After the discards:
#   pone keeps KH 9C AH 2C (lays away 3S 4S), dealer keeps TD 5D 6D 7D (lays away 8S 9S), starter 5C.
# The play: KH 10, TD 20, 9C 29, dealer cannot play (5D 6D 7D) and says go, pone plays on AH 30,
# cannot play 2C (32): go for 1 to pone; dealer leads 5D 5, 2C 7, 6D 13, pone has no cards,
# 7D 20: last card for 1 to dealer. Show: pone 4, dealer 16, crib 5.
GO_HANDS = ("TD 5D 6D 7D 8S 9S", "KH 9C AH 2C 3S 4S")
GO_STARTER = "5C"
GO_DISCARDS = ("8S 9S", "3S 4S")
GO_PLAY = ("1 KH", "0 TD", "1 9C", "0 go", "1 AH", "0 5D", "1 2C", "0 6D", "0 7D")

MANUAL = HouseRules(manual_counting=True)
MUGGINS = HouseRules(manual_counting=True, muggins=True)


def D(seat: int, cards: str) -> Discard:
    return Discard(seat, parse_cards(cards))


def P(seat: int, card: str) -> Play:
    return Play(seat, parse_card(card))


def parse_moves(moves):
    """``"1 KH"`` -> Play(1, KH); ``"0 go"`` -> Go(0)."""
    from games.engine.actions import Go

    out = []
    for move in moves:
        seat, what = move.split()
        out.append(Go(int(seat)) if what == "go" else P(int(seat), what))
    return out


def run(state: GameState, *actions) -> tuple[GameState, list[Event]]:
    """Apply actions in order; return the final state and every event."""
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def deal(rules: HouseRules | None = None, *, hands=GO_HANDS, starter=GO_STARTER, dealer=0, scores=None,
         **kw) -> GameState:
    return start_deal(rules or HouseRules(), dealer=dealer, hands=hands, starter=starter, scores=scores, **kw)


def discarded(rules: HouseRules | None = None, discards=GO_DISCARDS, **kw) -> GameState:
    """The deal after both discards (phase play unless his heels ended the game)."""
    state = deal(rules, **kw)
    state, _ = run(state, *(D(s, cards) for s, cards in enumerate(discards)))
    return state


def played(rules: HouseRules | None = None, moves=GO_PLAY, **kw) -> tuple[GameState, list[Event]]:
    return run(discarded(rules, **kw), *parse_moves(moves))


def refused(state: GameState, action, error: type[Exception], match: str | None = None) -> None:
    """``action`` raises ``error`` and leaves ``state`` as it was."""
    before = state.to_dict()
    with pytest.raises(error, match=match):
        apply(state, action)
    assert state.to_dict() == before
    assert GameState.from_dict(before) == state


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def scored(events, kind: str) -> list[tuple[int | None, int]]:
    return [(e.seat, e.points) for e in events if e.kind == kind]


def visible_cards(state: GameState, seat: int) -> set:
    """The cards ``seat`` may know of: its own, the cut, the starter, the play, the show (and the
    last deal's show, laid face up then)."""
    seen = set(state.hands[seat]) | set(state.kept[seat]) | set(state.discards[seat])
    seen |= {c for c in state.cut_cards if c is not None}
    # Cut cards of earlier attempts (ties) were shown to everyone; only the log still names them.
    seen |= {c for e in state.log if e.kind in ("cut", "dealer") for c in e.cards}
    if state.starter is not None:
        seen.add(state.starter)
    seen |= {c for _, c in state.plays}
    for entry in state.show:
        seen |= set(entry.cards)
    for entry in state.last_show:
        seen |= {*entry.cards, entry.starter}
    return seen


def assert_view_hides(state: GameState, seat: int, seat_view) -> None:
    """Nothing in the view (its dict, JSON, repr, event texts) names a card the seat may not see."""
    from games.engine.cards import DECK

    text = json.dumps(seat_view.to_dict()) + repr(seat_view)
    for key in ("secret", "deck"):
        assert f'"{key}"' not in text
    assert state.secret.hex() not in text
    for card in set(DECK) - visible_cards(state, seat):
        assert f'"{card}"' not in text, (seat, card)
        assert f"Card(rank={card.rank}, suit='{card.suit}')" not in text, (seat, card)
        assert card.name not in text, (seat, card)


THREE = HouseRules(players=3)
FOUR = HouseRules(players=4)

# --- a three-player deal ------------------------------------------------------------------------
# Dealer seat 2; seat 0 (the dealer's left) leads and counts first; seat 1 (the dealer's right)
# cuts. Each lays away its last card; 4C is dealt straight to the crib.
#   series 1: 0 TH 10, 1 9S 19, 2 9D 28 (pair: seat 2), 0 go, 1 3S 31 (2: seat 1); seat 2 leads
#   series 2: 2 8D 8, 0 JH 18, 1 9C 27, 2 AD 28, 0 go, 1 2S 30 (seat 1 now has no cards), 2 go:
#             nobody can play, seat 1 laid the last card and scores the go; seat 2 leads
#   series 3: 2 4D 4, 0 QH 14, seat 1 (no cards) and seat 2 (no cards) passed over, 0 KH 24:
#             last card, seat 0.
HANDS3 = ("TH JH QH KH 7C", "9S 9C 2S 3S 6C", "9D 8D AD 4D 5C")
CRIB_CARD3 = "4C"
STARTER3 = "2H"
PLAY3 = ("0 TH", "1 9S", "2 9D", "0 go", "1 3S",
         "2 8D", "0 JH", "1 9C", "2 AD", "0 go", "1 2S", "2 go",
         "2 4D", "0 QH", "0 KH")

# --- a four-player deal -------------------------------------------------------------------------
# Dealer seat 3; partners 0 & 2 (side 0) against 1 & 3 (side 1). Each lays away its queen.
#   series 1: 0 5H 5, 1 5S 10 (pair 2: side 1), 2 5D 15 (fifteen 2 + pair royal 6: side 0),
#             3 5C 20 (double pair royal 12: side 1), 0 TH 30, 1 go, 2 go, 3 go, 0 AH 31 (2: side 0)
#   series 2: 1 KS 10, 2 KD 20 (pair 2: side 0), 3 KC 30 (pair royal 6: side 1), 0 go, 1 go,
#             2 go: seat 3 laid the last card, cannot play either, scores the go (side 1)
#   series 3: 0 2H, 1 7S, 2 3D, 3 8C (20), seat 0 has no cards, 1 6S 26, 2 4D 30, 3 go: seat 2
#             laid the last card (and has no cards): go for seat 2 (side 0)
#   series 4: 3 9C: last card (side 1).
HANDS4 = ("5H TH AH 2H QH", "5S KS 6S 7S QS", "5D KD 3D 4D QD", "5C KC 8C 9C QC")
STARTER4 = "9D"
PLAY4 = ("0 5H", "1 5S", "2 5D", "3 5C", "0 TH", "1 go", "2 go", "3 go", "0 AH",
         "1 KS", "2 KD", "3 KC", "0 go", "1 go", "2 go",
         "0 2H", "1 7S", "2 3D", "3 8C", "1 6S", "2 4D", "3 go",
         "3 9C")
PEG4 = (13, 22)  # what each side pegs in PLAY4


def deal3(rules: HouseRules = THREE, **kw) -> GameState:
    kw.setdefault("dealer", 2)
    return start_deal(rules, hands=HANDS3, starter=STARTER3, crib_card=CRIB_CARD3, **kw)


def deal4(rules: HouseRules = FOUR, **kw) -> GameState:
    kw.setdefault("dealer", 3)
    return start_deal(rules, hands=HANDS4, starter=STARTER4, **kw)


def lay_away_last(state: GameState, hands) -> GameState:
    """Every seat lays away the last card of its dealt hand (as written in ``hands``)."""
    state, _ = run(state, *(D(seat, h.split()[-1]) for seat, h in enumerate(hands)))
    return state


def all_views(state: GameState):
    views = []
    for seat in range(state.players):
        v = view(state, seat)
        assert_view_hides(state, seat, v)
        json.dumps(v.to_dict())
        views.append(v)
    return views
