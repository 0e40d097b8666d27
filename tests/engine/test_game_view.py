"""What view(state, seat) shows at each phase, and what it never shows."""

from __future__ import annotations

import json

import pytest

from games.engine.actions import (
    AcceptCount,
    CallMuggins,
    Count,
    CutForDeal,
    Discard,
    Go,
    NextDeal,
    NextGame,
    Play,
)
from games.engine.cards import parse_card, parse_cards
from games.engine.game import apply, new_game
from games.engine.rules import HouseRules
from games.engine.view import SeatView, TableView, public_view, view
from tests.engine.game_support import (
    GO_PLAY,
    D,
    P,
    assert_view_hides,
    deal,
    discarded,
    parse_moves,
    played,
    run,
)

MUGGINS = HouseRules(manual_counting=True, muggins=True)


def both(state):
    """Both seats' views, each checked for leaks."""
    views = []
    for seat in (0, 1):
        v = view(state, seat)
        assert_view_hides(state, seat, v)
        json.dumps(v.to_dict())  # JSON-safe
        views.append(v)
    return views


def test_cut_phase():
    state = new_game(HouseRules(), b"view")
    v0, v1 = both(state)
    assert v0.phase == "cut" and v0.turn == (0, 1) and v0.my_turn
    assert v0.dealer is None and v0.pone is None and v0.crib_owner is None
    assert v0.hand == () and v0.hand_sizes == (0, 0) and v0.starter is None
    assert len(v0.legal_actions) == 52 and all(isinstance(a, CutForDeal) for a in v0.legal_actions)
    assert v0.cut_cards == (None, None) and v0.scores == (0, 0) and v0.target == 121
    state, _ = apply(state, CutForDeal(0, 7))
    v0, v1 = both(state)
    assert v0.turn == (1,) and not v0.my_turn and v0.legal_actions == ()
    assert v1.cut_positions == (7, None) and CutForDeal(1, 7) not in v1.legal_actions
    assert v1.cut_cards == (None, None)  # nothing shown until both have cut


def test_cut_revealed_then_deal():
    state = new_game(HouseRules(), b"view")
    state, _ = run(state, CutForDeal(0, 7), CutForDeal(1, 8))
    v0, v1 = both(state)
    # Positions 7 and 8 of this secret's cut deck are JS and 3C: seat 1 deals.
    assert v0.cut_cards == v1.cut_cards == parse_cards("JS 3C")
    assert v0.phase == "discard" and v0.dealer == 1 and v0.pone == 0 and len(v0.hand) == 6
    assert [e.kind for e in v0.log][:3] == ["cut", "cut", "dealer"]


def test_discard_phase():
    state = deal()
    v0, v1 = both(state)
    assert v0.phase == "discard" and v0.turn == (0, 1)
    assert v0.dealer == 0 and v0.pone == 1 and v0.crib_owner == 0 and v0.crib_size == 0
    assert v0.hand == parse_cards("5D 6D 7D 8S 9S TD") and v1.hand == parse_cards("AH 2C 3S 4S 9C KH")
    assert v0.hand_sizes == (6, 6) and v0.kept == () and v0.discards == ()
    assert len(v0.legal_actions) == 15 and all(isinstance(a, Discard) for a in v0.legal_actions)
    assert not v0.can_go and v0.playable == ()
    state, _ = apply(state, D(1, "3S 4S"))
    v0, v1 = both(state)
    assert v1.discards == parse_cards("3S 4S") and v1.kept == parse_cards("AH 2C 9C KH") == v1.hand
    assert v0.discards == () and v0.discarded == (False, True) and v0.crib_size == 2
    assert v0.turn == (0,) and v1.legal_actions == () and v0.hand_sizes == (6, 4)
    assert [e.cards for e in v0.log if e.kind == "discard"] == [()]


def test_play_phase():
    state = discarded()
    v0, v1 = both(state)
    assert v0.phase == "play" and v0.starter == parse_card("5C") and v0.turn == 1
    assert v1.my_turn and not v0.my_turn
    assert v1.playable == v1.hand and v1.legal_actions == tuple(Play(1, c) for c in v1.hand)
    assert v0.playable == () and v0.legal_actions == ()
    assert v0.crib_size == 4 and v0.crib == ()
    state, _ = run(state, P(1, "KH"), P(0, "TD"), P(1, "9C"))
    v0, v1 = both(state)
    assert v0.count == 29 and v0.turn == 0 and v0.can_go and v0.playable == ()
    assert v0.legal_actions == (Go(0),)
    assert v1.series == ((1, parse_card("KH")), (0, parse_card("TD")), (1, parse_card("9C")))
    assert v1.hand_sizes == (3, 2)
    state, _ = run(state, Go(0))
    v0, v1 = both(state)
    assert v1.gone == (True, False) and v1.playable == parse_cards("AH 2C") and not v1.can_go
    state, _ = run(state, P(1, "AH"))
    v0, v1 = both(state)
    assert v0.series == () and v0.count == 0 and len(v0.plays) == 4 and v0.scores == (0, 1)
    assert v0.back_pegs == (0, 0)


def test_show_automatic():
    state, _ = played()
    v0, v1 = both(state)
    assert v0.phase == "show" and v0.turn == (0, 1)
    assert v0.legal_actions == (NextDeal(0),)
    assert v1.crib == parse_cards("3S 4S 8S 9S")  # counted, so now public
    pone, dealer, crib = v1.show
    assert (pone.seat, pone.kind, pone.status, pone.total, pone.awarded) == (1, "hand", "done", 4, 4)
    assert pone.claimed is None and pone.starter == parse_card("5C")
    assert [g.kind for g in dealer.groups] == ["fifteen", "fifteen", "pair", "run", "run", "flush"]
    assert dealer.groups[0].cards == parse_cards("5D TD")
    assert crib.kind == "crib" and crib.total == 5
    assert v0.scores == (1 + 16 + 5, 1 + 4)
    assert v0.back_pegs == (1 + 16, 1)
    d = v0.to_dict()
    assert d["show"][1]["groups"][0] == {"kind": "fifteen", "cards": ["5D", "TD"], "points": 2,
                                         "text": "Fifteen for 2"}
    state, _ = apply(state, NextDeal(0))
    v0, v1 = both(state)
    assert v0.turn == (1,) and v0.acks == (True, False) and v0.legal_actions == ()


def test_show_manual_with_muggins_hides_the_true_count():
    state, _ = played(MUGGINS)
    v0, v1 = both(state)
    assert v0.turn == 1 and len(v0.show) == 1
    due = v0.show[0]
    assert due.status == "due" and due.total is None and due.groups == () and due.claimed is None
    assert due.cards == parse_cards("AH 2C 9C KH")
    assert v0.crib == () and v0.legal_actions == ()
    assert v1.legal_actions == tuple(Count(1, p) for p in range(30))  # any claim, whatever the worth
    state, _ = apply(state, Count(1, 2))
    v0, v1 = both(state)
    pending = v0.show[0]
    assert pending.status == "muggins" and pending.claimed == 2 and pending.total is None
    assert v0.legal_actions == (CallMuggins(0), AcceptCount(0)) and v1.legal_actions == ()
    state, _ = apply(state, AcceptCount(0))
    v0, v1 = both(state)
    assert v0.show[0].status == "done" and v0.show[0].total == 4 and v0.show[0].awarded == 2
    assert v0.show[1].status == "due" and v0.turn == 0
    state, _ = run(state, Count(0, 16), AcceptCount(1))
    v0, v1 = both(state)
    assert v1.show[2].kind == "crib" and v1.crib == parse_cards("3S 4S 8S 9S")  # laid out to count
    assert v1.show[2].total is None


def test_game_over_and_match_over():
    rules = HouseRules(match_games=3)
    state, _ = played(rules, scores=(100, 117))
    v0, v1 = both(state)
    assert v0.phase == "game_over" and v0.turn == (0, 1)
    assert v0.result is not None and v0.result.winner == 1 and v0.match_scores == (0, 1)
    assert v0.legal_actions == (NextGame(0),)
    assert v0.crib == ()  # the game ended before the crib was counted: it stays hidden
    state, _ = apply(state, NextGame(0))
    v0, v1 = both(state)
    assert v0.phase == "discard" and v0.result is None and len(v0.results) == 1
    assert v0.dealer == 0 and v0.game_no == 1


def test_match_over_view():
    state, _ = played(scores=(100, 117))
    v0, v1 = both(state)
    assert v0.phase == "match_over" and v0.turn is None and v0.legal_actions == ()
    assert v0.match_winner == 1 and v0.result.winner == 1 and not v0.my_turn


def test_view_is_frozen_and_rejects_bad_seat():
    state = deal()
    v = view(state, 0)
    assert isinstance(v, SeatView)
    with pytest.raises(AttributeError):
        v.phase = "x"  # type: ignore[misc]
    with pytest.raises(ValueError):
        view(state, 2)


def test_views_in_a_full_scripted_deal_never_leak():
    state = deal()
    both(state)
    for action in (D(0, "8S 9S"), D(1, "3S 4S"), *parse_moves(GO_PLAY), NextDeal(0), NextDeal(1)):
        state, _ = apply(state, action)
        both(state)
        table_only(state)


def table_only(state):
    """The table's view shows only what both seats may see, and is what their views share."""
    table = public_view(state)
    assert isinstance(table, TableView) and not isinstance(table, SeatView)
    seen = [view(state, seat) for seat in range(state.players)]
    for seat, seat_view in enumerate(seen):
        assert_view_hides(state, seat, table)
        assert TableView.to_dict(seat_view) == table.to_dict()
    assert json.loads(json.dumps(table.to_dict())) == table.to_dict()
