"""Between deals and games, from fixed decks (RULES.md): the next deal waits for every seat and the
deal passes; the cut for deal (the lower rank deals, ties cut again from a new deck); a match's next
game dealt by the loser, skunk levels, and resigning."""

from __future__ import annotations

import pytest

from games.engine.actions import CutForDeal, Discard, NextDeal, NextGame, Resign
from games.engine.deck import cut_seed, deal_seed, shuffle
from games.engine.errors import GameOver, IllegalAction, NotYourTurn, WrongPhase
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.testing import deal_with_deck, stacked_deck, with_scores
from tests.engine.game_support import D, P, deal, discarded, kinds, played, refused, run

# --- the next deal ------------------------------------------------------------------------------


def test_next_deal_waits_for_every_seat_and_the_deal_passes():
    state, _ = played()
    refused(state, P(0, "5D"), WrongPhase)
    state, events = apply(state, NextDeal(1))
    assert events == () and state.phase == "show" and state.acks == (False, True)
    refused(state, NextDeal(1), NotYourTurn)
    state, events = apply(state, NextDeal(0))
    assert state.phase == "discard" and state.dealer == 1 and state.deal_no == 1
    assert kinds(state.log) == ["deal"] and len(state.hands[0]) == 6
    assert state.deck == shuffle(deal_seed(b"test", 0, 1))


# --- cut for deal -------------------------------------------------------------------------------


def _positions(deck, want):
    """Positions in ``deck`` of two cards chosen by ``want(card_a, card_b)``."""
    for i, a in enumerate(deck):
        for j, b in enumerate(deck):
            if i != j and want(a, b):
                return i, j
    raise AssertionError("no such pair")


def test_cut_ties_recut_with_a_new_deck():
    secret = b"cut ties"
    state = new_game(HouseRules(), secret)
    deck0 = shuffle(cut_seed(secret, 0, 0))
    i, j = _positions(deck0, lambda a, b: a.rank == b.rank)
    state, _ = apply(state, CutForDeal(0, i))
    refused(state, CutForDeal(1, i), IllegalAction, "already been picked")
    refused(state, CutForDeal(0, j), NotYourTurn)
    state, events = apply(state, CutForDeal(1, j))
    assert kinds(events) == ["cut", "cut", "recut"]
    assert state.phase == "cut" and state.cut_attempt == 1 and state.cut_positions == (None, None)
    assert state.cut_cards == (deck0[i], deck0[j])
    deck1 = shuffle(cut_seed(secret, 0, 1))
    i, j = _positions(deck1, lambda a, b: a.rank > b.rank)
    state, events = run(state, CutForDeal(1, j), CutForDeal(0, i))
    assert state.dealer == 1 and state.phase == "discard"
    assert kinds(events) == ["cut", "cut", "dealer", "deal"]
    dealer_event = events[2]
    assert (dealer_event.seat, dealer_event.detail, dealer_event.cards) == (1, "cut", state.cut_cards)


@pytest.mark.parametrize(("low", "high"), [("A", "2"), ("J", "Q"), ("9", "T")])
def test_lower_rank_deals_suits_irrelevant(low, high):
    secret = b"ranks"
    deck = shuffle(cut_seed(secret, 0, 0))
    i, j = _positions(deck, lambda a, b: a.rank_char == low and b.rank_char == high)
    state, events = run(new_game(HouseRules(), secret), CutForDeal(0, i), CutForDeal(1, j))
    assert state.dealer == 0 and (events[2].kind, events[2].seat) == ("dealer", 0)
    assert [c.rank_char for c in events[2].cards] == [low, high]
    assert state.hands == tuple(state.hands)  # dealt
    assert len(state.hands[1]) == 6


def test_cut_refusals():
    state = new_game(HouseRules(), b"x")
    for bad in (-1, 52, "3"):
        refused(state, CutForDeal(0, bad), IllegalAction)
    refused(state, CutForDeal(2, 0), IllegalAction, "no seat")
    refused(state, D(0, "5H 6H"), WrongPhase)
    refused(state, NextDeal(0), WrongPhase)
    refused(state, NextGame(0), WrongPhase)


# --- match play ---------------------------------------------------------------------------------


def _win_by_heels(state, dealer_score, pone_score):
    """From a fresh deal (dealer 0 ... any), make the dealer win on his heels."""
    dealer = state.dealer
    hands = ["2H 3H 4H 5H 6H 7H", "2S 3S 4S 5S 6S 7S"]
    state = deal_with_deck(state, stacked_deck(dealer, hands, "JD"))
    scores = [0, 0]
    scores[dealer], scores[1 - dealer] = dealer_score, pone_score
    state = with_scores(state, scores)
    hands_now = state.hands
    return run(state, Discard(0, hands_now[0][:2]), Discard(1, hands_now[1][:2]))


def test_match_loser_deals_next_game_and_skunks_count_double():
    rules = HouseRules(match_games=3)  # first to 2 match points
    state = deal(rules, hands=("2H 3H 4H 5H 6H 7H", "2S 3S 4S 5S 6S 7S"))
    state, _ = _win_by_heels(state, 119, 95)  # seat 0 wins, no skunk: 1 point
    assert state.phase == "game_over" and state.match_scores == (1, 0)
    assert state.results[-1].value == 1 and state.to_act == (0, 1)
    assert legal_actions(state, 1) == (NextGame(1),)
    refused(state, NextDeal(0), WrongPhase)
    state, events = apply(state, NextGame(1))
    assert state.game_no == 1 and state.deal_no == 0 and state.dealer == 1  # the loser deals
    assert state.scores == (0, 0) and state.phase == "discard"
    assert kinds(events) == ["dealer", "deal"]
    assert state.deck == shuffle(deal_seed(b"test", 1, 0))
    state, events = _win_by_heels(state, 119, 90)  # seat 1 wins, seat 0 skunked: 2 points
    assert state.results[-1].skunk == 1 and state.results[-1].value == 2
    assert state.match_scores == (1, 2) and state.phase == "match_over" and state.match_winner == 1
    assert kinds(events)[-2:] == ["game_won", "match_won"]


@pytest.mark.parametrize(("rules", "loser", "skunk", "value"), [
    (HouseRules(), 91, 0, 1),
    (HouseRules(), 90, 1, 2),
    (HouseRules(), 61, 1, 2),
    (HouseRules(), 60, 2, 4),
    (HouseRules(), 0, 2, 4),
    (HouseRules(triple_skunk=True), 31, 2, 4),
    (HouseRules(triple_skunk=True), 30, 3, 8),
    (HouseRules(skunks=False), 10, 0, 1),
    (HouseRules(target=61), 31, 0, 1),
    (HouseRules(target=61), 30, 1, 2),
    (HouseRules(target=61), 0, 1, 2),
])
def test_skunk_levels(rules, loser, skunk, value):
    state = deal(rules)
    state, _ = _win_by_heels(state, rules.target - 2, loser)
    result = state.results[-1]
    assert (result.loser_score, result.skunk, result.value) == (loser, skunk, value)


def test_resign_ends_the_match():
    state, _ = run(discarded(), P(1, "KH"))
    state, events = apply(state, Resign(1))
    assert state.phase == "match_over" and state.match_winner == 0
    assert kinds(events) == ["resign", "game_won"]
    assert state.results[-1].reason == "resign" and state.results[-1].value == 1
    refused(state, Resign(0), GameOver)


def test_resign_between_games_ends_the_match():
    state = deal(HouseRules(match_games=5))
    state, _ = _win_by_heels(state, 119, 100)
    state, events = apply(state, Resign(0))  # the winner of game 0 resigns the match
    assert state.phase == "match_over" and state.match_winner == 1 and len(state.results) == 1
