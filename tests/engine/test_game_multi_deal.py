"""Three-player and four-player (partners) cribbage, up to the play: seats and sides, the cut for
deal (the lowest deals, a tie for lowest cuts again), five cards each and one to the crib (the deck's
card with three players), and what each seat may see.

RULES.md "Three and four players"; the design (sides, who cuts, leads and counts, muggins, skunks)
is in docs/engine-api.md. Scenarios run from the stacked deals of ``tests/engine/game_support.py``.
"""

from __future__ import annotations

import json

import pytest

from games.engine.actions import CutForDeal, Discard
from games.engine.cards import parse_card, parse_cards
from games.engine.deck import cut_seed, deal_seed, shuffle
from games.engine.errors import IllegalAction, NotYourTurn, WrongPhase
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.state import GameState
from games.engine.testing import stacked_deck
from games.engine.view import view
from tests.engine.game_support import (
    CRIB_CARD3,
    FOUR,
    HANDS3,
    HANDS4,
    PLAY4,
    STARTER3,
    STARTER4,
    THREE,
    P,
    all_views,
    deal3,
    deal4,
    kinds,
    lay_away_last,
    parse_moves,
    refused,
    run,
)

# --- new game, deal sizes, the crib -------------------------------------------------------------


@pytest.mark.parametrize(("players", "sides", "teams"), [
    (2, 2, ((0,), (1,))),
    (3, 3, ((0,), (1,), (2,))),
    (4, 2, ((0, 2), (1, 3))),
])
def test_new_game_seats_and_sides(players, sides, teams):
    state = new_game(HouseRules(players=players), b"x")
    assert state.players == players and state.rules.players == players
    assert state.scores == (0,) * sides and state.match_scores == (0,) * sides
    assert state.teams == teams and len(state.hands) == players
    assert state.to_act == tuple(range(players))
    assert [state.side_of(s) for s in range(players)] == [s % sides for s in range(players)]
    # players= overrides the rules and is stored in them.
    assert new_game(HouseRules(), b"x", players=players).rules == HouseRules(players=players)
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@pytest.mark.parametrize("players", [3, 4])
def test_cut_deal_five_each_and_discard_one(players):
    secret = b"multi deal"
    state = new_game(HouseRules(players=players), secret)
    state, events = run(state, *(CutForDeal(s, s) for s in range(players)))
    while state.phase == "cut":  # equal low cards: cut again
        state, events = run(state, *(CutForDeal(s, s) for s in range(players)))
    assert kinds(events)[-2:] == ["dealer", "deal"]
    deck = shuffle(deal_seed(secret, 0, 0))
    assert state.deck == deck
    assert [len(h) for h in state.hands] == [5] * players
    # One card at a time, starting left of the dealer.
    pone = (state.dealer + 1) % players
    assert state.pone == pone and deck[0] in state.hands[pone]
    assert state.cutter == (state.dealer - 1) % players  # the dealer's right
    if players == 3:
        assert state.crib == (deck[15],) and state.starter_index == 16
    else:
        assert state.crib == () and state.starter_index == 20
    seat = state.to_act[0]
    options = legal_actions(state, seat)
    assert len(options) == 5 and all(len(a.cards) == 1 for a in options)
    hand = state.hands[seat]
    refused(state, Discard(seat, hand[:2]), IllegalAction, "exactly one card")
    refused(state, Discard(seat, ()), IllegalAction, "exactly one card")
    refused(state, P(seat, str(hand[0])), WrongPhase, "lay away one card first")
    state, events = apply(state, Discard(seat, hand[:1]))
    assert (events[0].kind, events[0].seat, events[0].cards) == ("discard", seat, ())
    refused(state, Discard(seat, state.hands[seat][:1]), NotYourTurn, "already")
    for s in state.to_act:
        state, events = apply(state, Discard(s, state.hands[s][:1]))
    assert state.phase == "play" and len(state.crib) == 4
    assert state.starter == deck[state.starter_index]
    assert all(len(h) == 4 for h in state.hands) and all(len(k) == 4 for k in state.kept)
    assert state.turn == pone  # the dealer's left leads


def test_three_player_crib_starts_with_the_deck_card():
    state = deal3()
    assert state.crib == (parse_card(CRIB_CARD3),)
    assert state.deck[15] == parse_card(CRIB_CARD3) and state.deck[16] == parse_card(STARTER3)
    v = view(state, 2)  # even the dealer does not see the crib card
    assert v.crib_size == 1 and v.crib == () and v.crib_owner == 2
    assert v.hand_sizes == (5, 5, 5) and v.cutter == 1 and v.pone == 0
    all_views(state)
    state = lay_away_last(state, HANDS3)
    assert state.crib == tuple(sorted(parse_cards("4C 7C 6C 5C")))
    assert view(state, 0).crib_size == 4 and view(state, 0).hand_sizes == (4, 4, 4)


def test_stacked_deck_checks_the_crib_card():
    with pytest.raises(ValueError, match="crib_card"):
        stacked_deck(0, HANDS3, STARTER3)
    with pytest.raises(ValueError, match="crib_card"):
        stacked_deck(0, HANDS4, STARTER4, crib_card="2C")
    with pytest.raises(ValueError, match="hands"):
        stacked_deck(0, HANDS3[:2], STARTER3, players=3, crib_card="4C")


# --- the cut for deal ---------------------------------------------------------------------------


def _positions(deck, ranks):
    """Distinct positions in ``deck`` of cards with these ranks (in order)."""
    used: list[int] = []
    for rank in ranks:
        used.append(next(i for i, c in enumerate(deck) if c.rank_char == rank and i not in used))
    return used


def test_three_player_cut_lowest_deals_and_a_tie_for_lowest_recuts_everyone():
    secret = b"three cut"
    state = new_game(THREE, secret)
    deck0 = shuffle(cut_seed(secret, 0, 0))
    state, events = run(state, *(CutForDeal(s, p) for s, p in enumerate(_positions(deck0, "393"))))
    assert kinds(events) == ["cut", "cut", "cut", "recut"]
    assert [c.rank for c in events[-1].cards] == [3, 3] and events[-1].seat is None
    assert state.phase == "cut" and state.cut_attempt == 1 and state.cut_positions == (None, None, None)
    assert [c.rank_char for c in state.cut_cards] == ["3", "9", "3"]
    # A tie above the lowest card does not matter.
    first, second, third = _positions(shuffle(cut_seed(secret, 0, 1)), "K2K")
    state, _ = apply(state, CutForDeal(0, first))
    refused(state, CutForDeal(0, second), NotYourTurn, "waiting for the other cuts")
    refused(state, CutForDeal(1, first), IllegalAction, "already been picked")
    state, events = run(state, CutForDeal(2, third), CutForDeal(1, second))
    assert state.dealer == 1 and state.phase == "discard"
    assert kinds(events) == ["cut", "cut", "cut", "dealer", "deal"]
    assert (events[3].seat, events[3].detail, events[3].cards) == (1, "cut", state.cut_cards)
    assert state.pone == 2 and state.cutter == 0


@pytest.mark.parametrize(("ranks", "dealer"), [("JQKQ", 0), ("9A58", 1), ("T9QK", 1)])
def test_four_player_cut(ranks, dealer):
    secret = b"four cut"
    deck = shuffle(cut_seed(secret, 0, 0))
    cuts = (CutForDeal(s, p) for s, p in enumerate(_positions(deck, ranks)))
    state, events = run(new_game(FOUR, secret), *cuts)
    assert state.dealer == dealer
    assert (events[4].kind, events[4].seat, events[4].detail) == ("dealer", dealer, "cut")
    assert "".join(c.rank_char for c in events[4].cards) == ranks
    assert state.pone == (dealer + 1) % 4 and state.cutter == (dealer + 3) % 4


# --- the view -----------------------------------------------------------------------------------


def test_four_player_view_hides_the_partners_cards():
    state = deal4()
    views = all_views(state)
    for seat, v in enumerate(views):
        assert v.players == 4 and v.sides == 2 and v.teams == ((0, 2), (1, 3))
        assert v.side == seat % 2 and v.partner == (seat + 2) % 4 and v.side_of(v.partner) == v.side
        assert v.hand == state.hands[seat] and v.hand_sizes == (5, 5, 5, 5)
        assert v.dealer == 3 and v.pone == 0 and v.cutter == 2
        text = json.dumps(v.to_dict())
        for other in range(4):
            if other != seat:
                assert not set(state.hands[other]) & set(v.hand)
                assert all(f'"{c}"' not in text for c in state.hands[other])
        d = v.to_dict()
        assert d["teams"] == [[0, 2], [1, 3]] and d["side"] == seat % 2 and d["cutter"] == 2
    state = lay_away_last(state, HANDS4)
    state, _ = run(state, *parse_moves(PLAY4[:5]))
    all_views(state)


def test_three_player_view_fields():
    v = view(deal3(), 1)
    assert v.players == 3 and v.sides == 3 and v.teams == ((0,), (1,), (2,))
    assert v.side == 1 and v.partner is None and v.scores == (0, 0, 0)
    assert view(new_game(HouseRules(), b"x"), 0).partner is None
