"""Three-player and four-player (partners) cribbage: every rule that differs from two players.

RULES.md "Three and four players"; the design (sides, who cuts, leads and counts, muggins, skunks)
is in docs/engine-api.md. Scenarios run from stacked decks (``games.engine.testing``).
"""

from __future__ import annotations

import json
import random

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
    Resign,
)
from games.engine.cards import parse_card, parse_cards
from games.engine.deck import cut_seed, deal_seed, shuffle
from games.engine.errors import IllegalAction, NotYourTurn, WrongPhase
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.engine.state import GameResult, GameState
from games.engine.testing import deal_with_deck, stacked_deck, start_deal, with_scores
from games.engine.view import view
from tests.engine.game_support import D, P, assert_view_hides, kinds, parse_moves, refused, run, scored

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


# --- the play -----------------------------------------------------------------------------------


def test_three_player_go_passes_round_and_seats_out_of_cards_are_skipped():
    state = lay_away_last(deal3(), HANDS3)
    assert state.turn == 0  # the dealer's left leads
    moves = parse_moves(PLAY3)
    state, events = run(state, *moves[:3])
    assert state.count == 28 and scored(events, "pair") == [(2, 2)] and state.turn == 0
    assert legal_actions(state, 0) == (Go(0),)  # tens only
    refused(state, Go(1), NotYourTurn)
    state, events = apply(state, Go(0))
    assert kinds(events) == ["say_go"] and state.gone == (True, False, False) and state.turn == 1
    refused(state, Go(1), IllegalAction, "fits")  # 2S and 3S fit
    state, events = apply(state, P(1, "3S"))
    assert scored(events, "thirty_one") == [(1, 2)] and kinds(events)[-1] == "reset"
    assert state.turn == 2 and state.gone == (False, False, False)  # left of the last card leads
    state, events = run(state, *moves[5:11])
    assert state.count == 30 and state.hands[1] == () and state.turn == 2
    assert state.gone == (True, False, False)
    state, events = apply(state, Go(2))
    # Seat 0 said go, seat 1 has no cards, seat 2 said go: seat 1 laid the last card: go for 1.
    assert kinds(events) == ["say_go", "go", "reset"] and scored(events, "go") == [(1, 1)]
    assert state.turn == 2  # next clockwise after seat 1 that holds cards
    state, _ = apply(state, P(2, "4D"))
    assert state.turn == 0
    state, _ = apply(state, P(0, "QH"))
    assert state.turn == 0  # seats 1 and 2 have no cards: seat 0 plays on
    state, events = apply(state, P(0, "KH"))
    assert scored(events, "last_card") == [(0, 1)]
    assert state.phase == "show"
    assert [s for s, _ in state.plays] == [0, 1, 2, 1, 2, 0, 1, 2, 1, 2, 0, 0]
    assert state.scores[:2] == (1 + 10, 3 + 4)


def test_three_player_show_counts_from_the_dealers_left_then_the_crib():
    state, events = run(lay_away_last(deal3(), HANDS3), *parse_moves(PLAY3))
    starter = parse_card(STARTER3)
    assert [(e.seat, e.kind) for e in state.show] == [(0, "hand"), (1, "hand"), (2, "hand"), (2, "crib")]
    assert [(e.seat, e.kind) for e in events if e.kind in ("hand", "crib")] == [
        (0, "hand"), (1, "hand"), (2, "hand"), (2, "crib")]
    hands = [score_hand(state.kept[s], starter).total for s in range(3)]
    crib = score_hand(state.crib, starter, crib=True).total
    assert hands == [10, 4, 8] and crib == 8  # 4-5-6-7 with a 2: no five-card flush in the crib
    # Pegging: seat 0 last card 1; seat 1 31 for 2 and a go; seat 2 a pair.
    assert state.scores == (1 + 10, 3 + 4, 2 + 8 + 8)
    assert state.to_act == (0, 1, 2)


def test_three_player_first_to_count_out_wins():
    # Seats 1 and 2 would both count out too; seat 0 counts first and wins before either.
    state = lay_away_last(deal3(scores=(110, 114, 111)), HANDS3)
    state, events = run(state, *parse_moves(PLAY3))
    assert state.phase == "match_over" and state.match_winner == 0
    assert [e.kind for e in events][-2:] == ["hand", "game_won"]
    result = state.results[-1]
    assert result.scores == (121, 117, 113) and result.winner == 0
    assert (events[-1].scores, events[-1].skunks, events[-1].detail) == ((121, 117, 113), (0, 0, 0), "target")


def test_four_player_partners_share_one_score_and_peg_each_others_pairs():
    state = lay_away_last(deal4(), HANDS4)
    assert state.turn == 0 and state.scores == (0, 0)
    moves = parse_moves(PLAY4)
    state, events = run(state, *moves[:4])
    # Pairs count whoever laid the cards; points go to the side of the seat laying the last card.
    assert scored(events, "pair") == [(1, 2), (2, 6), (3, 12)] and scored(events, "fifteen") == [(2, 2)]
    assert state.scores == (8, 14) and state.back_pegs == (2, 2)  # one back peg per side
    state, _ = apply(state, moves[4])
    assert state.count == 30
    for seat in (1, 2, 3):  # the go passes round the table
        assert state.turn == seat and legal_actions(state, seat) == (Go(seat),)
        state, _ = apply(state, Go(seat))
    assert state.turn == 0 and legal_actions(state, 0) == (P(0, "AH"),)
    state, events = apply(state, moves[8])
    assert scored(events, "thirty_one") == [(0, 2)] and state.turn == 1
    state, events = run(state, *moves[9:15])
    # Nobody can play after 30: seat 3 laid the last card and scores the go without saying it.
    assert kinds(events)[-4:] == ["say_go", "say_go", "go", "reset"] and scored(events, "go") == [(3, 1)]
    assert state.turn == 0
    state, events = run(state, *moves[15:22])
    assert state.hands[0] == () and scored(events, "go") == [(2, 1)] and state.turn == 3
    state, events = apply(state, moves[22])
    assert scored(events, "last_card") == [(3, 1)] and state.phase == "show"
    pegged = PEG4
    starter = parse_card(STARTER4)
    hands = [score_hand(state.kept[s], starter).total for s in range(4)]
    crib = score_hand(state.crib, starter, crib=True).total
    assert [(e.seat, e.kind) for e in state.show] == [(0, "hand"), (1, "hand"), (2, "hand"), (3, "hand"),
                                                       (3, "crib")]
    assert state.scores == (pegged[0] + hands[0] + hands[2], pegged[1] + hands[1] + hands[3] + crib)
    for v in all_views(state):
        assert v.scores == state.scores and v.my_score == state.scores[v.seat % 2]


def test_four_player_partnership_wins_and_the_losers_are_skunked():
    state = lay_away_last(deal4(scores=(110, 0)), HANDS4)
    moves = parse_moves(PLAY4)
    state, events = run(state, *moves[:11])  # seat 2 pairs the king: side 0 reaches 122
    assert state.phase == "match_over" and state.match_winner == 0 and state.match_scores == (4, 0)
    result = state.results[-1]
    assert (result.winner, result.scores, result.loser_score) == (0, (122, 14), 14)
    assert (result.skunk, result.skunks, result.value) == (2, (0, 2), 4)
    assert events[-1].kind == "game_won" and events[-1].seat == 0
    assert (events[-1].scores, events[-1].skunks) == ((122, 14), (0, 2))
    for v in all_views(state):
        assert v.result == result and v.match_winner == 0


def test_his_heels_scores_for_the_dealers_partnership():
    state = start_deal(FOUR, dealer=1, hands=HANDS4, starter="JS", scores=(5, 7))
    state, events = run(state, *(D(s, h.split()[-1]) for s, h in enumerate(HANDS4)))
    assert scored(events, "his_heels") == [(1, 2)] and state.scores == (5, 9)


# --- the show with manual counting and muggins -------------------------------------------------


def test_three_player_muggins_is_called_by_the_next_opponent_clockwise():
    rules = HouseRules(players=3, manual_counting=True, muggins=True)
    state, _ = run(lay_away_last(deal3(rules), HANDS3), *parse_moves(PLAY3))
    assert state.turn == 0 and state.show[-1].status == "due"
    state, _ = apply(state, Count(0, 6))  # worth 10
    assert state.turn == 1 and legal_actions(state, 1) == (CallMuggins(1), AcceptCount(1))
    refused(state, CallMuggins(2), NotYourTurn, r"seat 1\) can call muggins")
    refused(state, AcceptCount(2), NotYourTurn, "accept the count")
    assert legal_actions(state, 2) == ()
    before = state.scores
    state, events = apply(state, CallMuggins(1))
    assert scored(events, "muggins") == [(1, 4)] and state.scores == (before[0], before[1] + 4, before[2])
    assert state.turn == 1  # seat 1 counts next
    state, _ = apply(state, Count(1, 4))
    assert state.turn == 2
    state, _ = run(state, AcceptCount(2), Count(2, 8))
    assert state.turn == 0  # the dealer's hand is checked by the seat on its left
    state, _ = run(state, AcceptCount(0), Count(2, 8))
    assert state.turn == 0 and state.show[-1].kind == "crib"
    state, _ = apply(state, AcceptCount(0))
    assert state.turn is None and state.to_act == (0, 1, 2)


def test_four_player_muggins_never_asks_the_partner():
    rules = HouseRules(players=4, manual_counting=True, muggins=True)
    state, _ = run(lay_away_last(deal4(rules), HANDS4), *parse_moves(PLAY4))
    callers = []
    while state.turn is not None:
        entry = state.show[-1]
        state, _ = apply(state, Count(entry.seat, 0))
        if state.show[-1].status != "muggins":
            continue
        caller = state.turn
        callers.append((entry.seat, caller))
        partner = (entry.seat + 2) % 4
        refused(state, CallMuggins(partner), NotYourTurn)
        state, events = apply(state, CallMuggins(caller))
        assert events[0].seat == caller
    assert callers == [(0, 1), (1, 2), (2, 3), (3, 0), (3, 0)]


def test_four_player_peg_out_zone_skips_both_partners():
    rules = HouseRules(players=4, peg_out_zone=5)
    state = lay_away_last(deal4(rules, scores=(103, 0)), HANDS4)
    state, events = run(state, *parse_moves(PLAY4))
    assert state.scores[0] == 116  # pegged 13: within five of 121 when the show begins
    assert state.show_zoned == (True, False, True, False)
    assert [(e.seat, e.status) for e in state.show] == [
        (0, "skipped"), (1, "done"), (2, "skipped"), (3, "done"), (3, "done")]
    assert scored(events, "peg_out_zone") == [(0, 0), (2, 0)]
    assert state.scores[0] == 116


# --- winning, skunks, match play, resigning -----------------------------------------------------


def _heels(state: GameState, scores) -> tuple[GameState, list]:
    """Redo the fresh deal so the starter is a jack (his heels) and set the scores."""
    n = state.players
    size = 6 if n == 2 else 5
    hands = [" ".join(f"{r}{s}" for r in "23456789"[:size]) for s in "SHDC"[:n]]
    crib = "KC" if n == 3 else None
    state = deal_with_deck(state, stacked_deck(state.dealer, hands, "JD", n, crib))
    state = with_scores(state, scores)
    return run(state, *(Discard(s, state.hands[s][:1]) for s in range(n)))


@pytest.mark.parametrize(("scores", "skunks", "value"), [
    ((119, 95, 91), (0, 0, 0), 1),
    ((119, 95, 90), (0, 0, 1), 2),
    ((119, 60, 90), (0, 2, 1), 4),
    ((119, 61, 61), (0, 1, 1), 2),
])
def test_three_player_skunks_are_judged_per_loser(scores, skunks, value):
    state, events = _heels(deal3(dealer=0), scores)
    result = state.results[-1]
    assert result.winner == 0 and result.scores == (121, *scores[1:])
    assert result.skunks == skunks and result.skunk == max(skunks) and result.value == value
    assert result.loser_score == min(scores[1:])
    assert (events[-1].seat, events[-1].scores, events[-1].skunks) == (0, result.scores, skunks)
    assert GameResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_three_player_triple_and_no_skunks():
    state, _ = _heels(deal3(HouseRules(players=3, triple_skunk=True), dealer=0), (119, 30, 100))
    assert state.results[-1].skunks == (0, 3, 0) and state.results[-1].value == 8
    state, _ = _heels(deal3(HouseRules(players=3, skunks=False), dealer=0), (119, 30, 100))
    assert state.results[-1].skunks == (0, 0, 0) and state.results[-1].value == 1


def test_results_stored_before_skunks_were_listed_still_load():
    old = {"game_no": 0, "winner": 1, "scores": [80, 121], "loser_score": 80, "skunk": 1, "value": 2,
           "reason": "target"}
    assert GameResult.from_dict(old).skunks == (1, 0)


def test_three_player_match_lowest_loser_deals_next():
    state = deal3(HouseRules(players=3, match_games=3), dealer=0)
    state, _ = _heels(state, (119, 95, 100))
    assert state.phase == "game_over" and state.match_scores == (1, 0, 0)
    assert state.to_act == (0, 1, 2)
    state, events = apply(state, NextGame(2))
    assert state.dealer == 1 and (events[0].kind, events[0].seat, events[0].detail) == ("dealer", 1, "lost")
    assert state.scores == (0, 0, 0) and state.game_no == 1 and [len(h) for h in state.hands] == [5, 5, 5]
    state, events = _heels(state, (100, 119, 100))  # seat 1 deals and wins; a tie for lowest
    assert state.match_scores == (1, 1, 0)
    state, _ = apply(state, NextGame(0))
    assert state.dealer == 2  # the first clockwise from the last dealer among the lowest


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_player_match_losing_partnership_deals_next(dealer):
    state = deal4(HouseRules(players=4, match_games=3), dealer=dealer)
    scores = (119, 100) if dealer % 2 == 0 else (100, 119)
    state, _ = _heels(state, scores)  # the dealer's side wins
    winner = dealer % 2
    assert state.results[-1].winner == winner and state.match_scores[winner] == 1
    state, events = apply(state, NextGame(0))
    # The losing side's first seat clockwise from the last dealer: here the seat on its left.
    assert state.dealer == (dealer + 1) % 4 and events[0].seat == state.dealer


def test_four_player_next_game_after_a_pegged_win():
    state = lay_away_last(deal4(HouseRules(players=4, match_games=3, skunks=False), scores=(110, 0)), HANDS4)
    state, _ = run(state, *parse_moves(PLAY4[:11]))  # side 0 wins while seat 3 deals
    assert state.phase == "game_over" and state.match_scores == (1, 0)
    state, events = apply(state, NextGame(2))
    assert state.dealer == 1  # seat 3 dealt; side 1 lost: seat 3's partner, next clockwise
    assert (events[0].kind, events[0].seat, events[0].detail) == ("dealer", 1, "lost")


def test_four_player_resign_gives_the_match_to_the_other_partnership():
    state = lay_away_last(deal4(scores=(50, 40)), HANDS4)
    state, events = apply(state, Resign(2))
    assert state.match_winner == 1 and state.results[-1].winner == 1 and state.results[-1].reason == "resign"
    won = events[-1]
    assert (won.kind, won.seat, won.scores, won.detail) == ("game_won", 1, (50, 40), "resign")
    refused(state, Resign(1), IllegalAction)


@pytest.mark.parametrize(("scores", "resigner", "winner"), [
    ((10, 20, 30), 0, 2),
    ((10, 20, 20), 0, 1),
    ((10, 20, 20), 1, 2),
    ((30, 20, 30), 1, 2),
])
def test_three_player_resign_best_placed_other_wins(scores, resigner, winner):
    state = lay_away_last(deal3(scores=scores), HANDS3)
    state, _ = apply(state, Resign(resigner))
    assert state.match_winner == winner and state.results[-1].skunks == (0, 0, 0)


# --- the next deal: the deal passes left --------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_dealer_rotation_and_counting_order_over_many_deals(players):
    rng = random.Random(players)
    state = new_game(HouseRules(players=players), b"rotation")
    while state.phase == "cut":
        taken = set()
        for seat in range(players):
            pos = rng.choice([p for p in range(52) if p not in taken])
            taken.add(pos)
            state, _ = apply(state, CutForDeal(seat, pos))
    dealers = []
    while state.phase not in ("match_over", "game_over"):
        if state.phase == "show" and state.turn is None:
            dealer = state.dealer
            dealers.append(dealer)
            assert [(e.seat, e.kind) for e in state.show] == [
                ((dealer + k) % players, "hand") for k in range(1, players + 1)] + [(dealer, "crib")]
            assert state.to_act == tuple(range(players))
            state, events = apply(state, NextDeal(dealer))
            assert events == () and state.acks[dealer]
            refused(state, NextDeal(dealer), NotYourTurn, "waiting for the other players")
            for seat in range(players):
                if seat != dealer:
                    state, _ = apply(state, NextDeal(seat))
            assert state.dealer == (dealer + 1) % players and state.phase == "discard"
            assert state.deal_no == len(dealers)
            continue
        if state.phase == "play" and not state.plays:
            assert state.turn == (state.dealer + 1) % players
        seat = rng.choice(state.to_act)
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    assert len(dealers) >= 4
    assert all(b == (a + 1) % players for a, b in zip(dealers, dealers[1:], strict=False))


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
