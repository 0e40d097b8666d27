"""Shared helpers for the game state machine tests (test_game_*.py)."""

from __future__ import annotations

import pytest

from games.engine.actions import Discard, Play
from games.engine.cards import parse_card, parse_cards
from games.engine.events import Event
from games.engine.game import apply
from games.engine.rules import HouseRules
from games.engine.state import GameState
from games.engine.testing import start_deal

# A deal used by several tests. Dealer is seat 0, pone seat 1. After the discards:
#   pone keeps KH 9C AH 2C (lays away 3S 4S), dealer keeps TD 5D 6D 7D (lays away 8S 9S), starter 5C.
# The play: KH 10, TD 20, 9C 29, dealer cannot play (5D 6D 7D) and says go, pone plays on AH 30,
# cannot play 2C (32): go for 1 to pone; dealer leads 5D 5, 2C 7, 6D 13, pone has no cards,
# 7D 20: last card for 1 to dealer. Show: pone 4, dealer 16, crib 5.
GO_HANDS = ("TD 5D 6D 7D 8S 9S", "KH 9C AH 2C 3S 4S")
GO_STARTER = "5C"
GO_DISCARDS = ("8S 9S", "3S 4S")
GO_PLAY = ("1 KH", "0 TD", "1 9C", "0 go", "1 AH", "0 5D", "1 2C", "0 6D", "0 7D")


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
    import json

    from games.engine.cards import DECK

    text = json.dumps(seat_view.to_dict()) + repr(seat_view)
    for key in ("secret", "deck"):
        assert f'"{key}"' not in text
    assert state.secret.hex() not in text
    for card in set(DECK) - visible_cards(state, seat):
        assert f'"{card}"' not in text, (seat, card)
        assert f"Card(rank={card.rank}, suit='{card.suit}')" not in text, (seat, card)
        assert card.name not in text, (seat, card)
