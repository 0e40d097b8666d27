"""Whole-deal and whole-game scenarios for the state machine, from fixed decks (RULES.md)."""

from __future__ import annotations

import doctest
import importlib

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
from games.engine.errors import (
    CardNotInHand,
    CountExceeds31,
    GameOver,
    IllegalAction,
    NotYourTurn,
    WrongPhase,
)
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.engine.testing import deal_with_deck, stacked_deck, with_scores
from tests.engine.game_support import (
    GO_PLAY,
    D,
    P,
    deal,
    discarded,
    kinds,
    parse_moves,
    played,
    refused,
    run,
    scored,
)

MANUAL = HouseRules(manual_counting=True)
MUGGINS = HouseRules(manual_counting=True, muggins=True)


# --- the play -----------------------------------------------------------------------------------


def test_go_then_the_other_player_plays_on_and_scores_the_go():
    state = discarded()
    assert state.phase == "play" and state.turn == 1  # pone leads
    state, _ = run(state, P(1, "KH"), P(0, "TD"), P(1, "9C"))
    assert state.count == 29 and state.turn == 0
    # The dealer holds 5D 6D 7D: nothing fits, so it must say go (playing is refused).
    assert legal_actions(state, 0) == (Go(0),)
    refused(state, P(0, "5D"), CountExceeds31, "past 31")
    state, events = apply(state, Go(0))
    assert kinds(events) == ["say_go"] and state.turn == 1
    # Pone holds AH 2C: both fit (30, 31), so go is refused; it plays on.
    refused(state, Go(1), IllegalAction, "fits")
    state, events = apply(state, P(1, "AH"))
    # Nobody can play now (2C would make 32): pone laid the last card and scores the go at once.
    assert kinds(events) == ["play", "go", "reset"]
    assert scored(events, "go") == [(1, 1)]
    assert state.count == 0 and state.series == () and state.scores == (0, 1)
    assert state.turn == 0  # the seat after the last player leads the next series


def test_a_seat_with_no_cards_is_skipped_and_last_card_scores_one():
    state, events = played(moves=GO_PLAY[:-1])
    assert state.hands[1] == () and state.turn == 0  # pone is out of cards: the dealer plays again
    state, events = apply(state, P(0, "7D"))
    assert kinds(events)[:2] == ["play", "last_card"]
    assert scored(events, "last_card") == [(0, 1)]
    assert state.phase == "show"


def test_go_for_the_last_player_when_the_other_has_no_cards():
    hands = ("TD KS QS JS 2D 3D", "9H 5C AH 8H 4C 6C")
    state = discarded(hands=hands, discards=("2D 3D", "4C 6C"), starter="7D")
    state, events = run(state, *parse_moves(["1 9H", "0 TD", "1 5C", "0 go", "1 AH"]))
    assert scored(events, "go") == [(1, 1)] and state.turn == 0 and state.hands[1] == (parse_card("8H"),)
    state, events = run(state, P(0, "KS"), P(1, "8H"))
    assert state.hands[1] == () and state.turn == 0 and state.count == 18
    # QS makes 28; the dealer's JS will not fit, pone has no cards: the go is scored at once,
    # the dealer never has to say go itself.
    state, events = apply(state, P(0, "QS"))
    assert kinds(events) == ["play", "go", "reset"] and scored(events, "go") == [(0, 1)]
    assert state.turn == 0 and state.count == 0
    state, events = apply(state, P(0, "JS"))
    assert scored(events, "last_card") == [(0, 1)] and state.phase == "show"
    pegged = [(e.seat, e.kind) for e in state.log if e.points and e.kind in ("go", "last_card")]
    assert pegged == [(1, "go"), (0, "go"), (0, "last_card")]


def test_31_scores_two_resets_at_once_and_the_other_seat_leads():
    hands = ("QS 4S 9D 8D TC JC", "KH 7C 2H 3H 5S 6S")
    state = discarded(MANUAL, hands=hands, discards=("TC JC", "5S 6S"), starter="AD")
    state, events = run(state, P(1, "KH"), P(0, "QS"), P(1, "7C"), P(0, "4S"))
    assert scored(events, "thirty_one") == [(0, 2)]
    assert kinds(events)[-1] == "reset" and "go" not in kinds(events)
    assert state.count == 0 and state.turn == 1  # pone, the seat after the dealer, leads
    state, events = run(state, P(1, "2H"), P(0, "9D"), P(1, "3H"), P(0, "8D"))
    assert scored(events, "last_card") == [(0, 1)]
    assert state.scores == (3, 0)


def test_31_with_the_last_card_scores_two_not_three():
    hands = ("KS KD QD JD 4D 5D", "KH AH QH AC 2C 3C")
    state = discarded(MANUAL, hands=hands, discards=("4D 5D", "2C 3C"), starter="6H")
    moves = ["1 KH", "0 KS", "1 AH", "0 KD", "1 QH", "0 QD", "1 AC", "0 JD"]
    state, events = run(state, *parse_moves(moves))
    assert scored(events, "thirty_one") == [(0, 2), (0, 2)]
    assert "last_card" not in kinds(events) and "go" not in kinds(events)
    assert scored(events, "pair") == [(0, 2), (0, 2)]
    assert state.scores == (8, 0)
    assert state.phase == "show"


def test_must_play_if_able():
    state, _ = run(discarded(), P(1, "KH"), P(0, "TD"))
    refused(state, Go(1), IllegalAction, "you hold a card that fits")
    assert Go(1) not in legal_actions(state, 1)


def test_pegging_scores_only_the_current_series():
    # After a reset the earlier cards no longer pair or run with the new ones.
    state, events = played(moves=GO_PLAY)
    assert scored(events, "pair") == [] and scored(events, "run") == []


# --- the starter --------------------------------------------------------------------------------


def test_his_heels_scores_two_for_the_dealer():
    state = discarded(starter="JH")
    assert state.scores == (2, 0) and state.back_pegs == (0, 0)
    assert "his_heels" in kinds(state.log) and state.phase == "play"


def test_his_heels_can_win_the_game():
    state = discarded(starter="JH", scores=(119, 100))
    assert state.phase == "match_over"
    assert state.scores == (121, 100) and state.match_winner == 0
    assert kinds(state.log)[-2:] == ["his_heels", "game_won"]
    assert state.results[-1].reason == "target" and state.results[-1].skunk == 0


# --- winning ------------------------------------------------------------------------------------


def test_a_win_during_pegging_skips_the_show():
    hands = ("TS KD QD 8S 9S AS", "5H 2C 3C 4C 6D 7D")
    state = discarded(hands=hands, discards=("8S 9S", "6D 7D"), starter="KC", scores=(119, 80))
    state, events = run(state, P(1, "5H"))
    state, events = apply(state, P(0, "TS"))
    assert kinds(events) == ["play", "fifteen", "game_won"]
    assert state.phase == "match_over" and state.show == ()
    result = state.results[-1]
    assert (result.winner, result.loser_score, result.skunk, result.value) == (0, 80, 1, 2)
    refused(state, P(1, "2C"), GameOver)
    assert legal_actions(state, 0) == legal_actions(state, 1) == ()


def test_pone_wins_in_the_show_before_the_dealer_counts():
    hands = ("KH KS QD QC 8S 9S", "2C 3D 4H 6S TH JH")
    moves = ["1 2C", "0 KH", "1 3D", "0 KS", "1 4H", "0 go", "0 QD", "1 6S", "0 QC"]
    state = discarded(hands=hands, discards=("8S 9S", "TH JH"), starter="5C", scores=(118, 110))
    state, events = run(state, *parse_moves(moves))
    # Pegging: pone 15 for 2 and the go (the dealer could not follow 4H at 29), dealer the last card.
    assert state.phase == "match_over" and state.match_winner == 1
    # Only pone's hand was counted: the dealer's 12 (which would also have won) never was.
    assert [(e.seat, e.kind) for e in state.show] == [(1, "hand")]
    assert kinds(events)[-2:] == ["hand", "game_won"]
    assert state.scores[0] < 121


def test_winning_mid_show_stops_the_count():
    state, _ = played(scores=(90, 110))  # pone 111 after the go, its hand is worth 4 -> 115; dealer counts
    assert state.phase == "show"
    state, _ = played(scores=(100, 117))  # pone 118 + 4 -> wins before the dealer counts
    assert state.phase == "match_over" and len(state.show) == 1 and state.scores[1] == 122


# --- peg-out zone -------------------------------------------------------------------------------


def test_stink_hole_seat_scores_nothing_in_the_show():
    rules = HouseRules(peg_out_zone=1)
    state, events = played(rules, scores=(119, 100))  # dealer takes the last card: 120, one short
    assert state.scores == (120, 101 + 4)
    show = [(e.seat, e.kind, e.status, e.awarded) for e in state.show]
    assert show == [(1, "hand", "done", 4), (0, "hand", "skipped", 0), (0, "crib", "skipped", 0)]
    zoned = [e for e in events if e.kind == "peg_out_zone"]
    assert [(e.seat, e.detail) for e in zoned] == [(0, "hand"), (0, "crib")]


def test_stink_hole_does_not_catch_a_seat_two_short():
    state, _ = played(HouseRules(peg_out_zone=1), scores=(100, 118))  # pone 119 after the go: 2 short
    assert state.show[0].status == "done" and state.phase == "match_over"  # its 4 win the game


def test_last_five_holes():
    rules = HouseRules(peg_out_zone=5)
    state, events = played(rules, scores=(100, 115))  # pone 116 after the go: 5 short -> nothing
    assert [e.status for e in state.show] == ["skipped", "done", "done"]
    assert state.scores == (101 + 16 + 5, 116)
    assert any(e.kind == "peg_out_zone" and e.seat == 1 and e.detail == "hand" for e in events)
    state, _ = played(rules, scores=(100, 114))  # 115 after the go: 6 short -> counts
    assert state.show[0].status == "done" and state.scores[1] == 119


# --- manual counting and muggins ----------------------------------------------------------------


def test_manual_counting_undercount_accepted():
    state, _ = played(MANUAL)
    assert state.phase == "show" and state.turn == 1 and state.show[0].status == "due"
    refused(state, Count(0, 4), NotYourTurn)
    refused(state, Count(1, -1), IllegalAction)
    refused(state, NextDeal(1), WrongPhase)
    state, events = apply(state, Count(1, 3))  # one point short: accepted, the point is lost
    assert scored(events, "hand") == [(1, 3)] and state.scores == (1, 4)
    assert state.show[0].status == "done" and state.show[0].claimed == 3 and state.turn == 0
    state, _ = run(state, Count(0, 16), Count(0, 5))
    assert state.scores == (22, 4) and state.turn is None
    assert legal_actions(state, 0) == (NextDeal(0),)


def test_automatic_counting_refuses_count():
    state, _ = played()
    refused(state, Count(1, 4), WrongPhase, "automatically")


def test_muggins_takes_the_missed_points():
    state, _ = played(MUGGINS)
    state, events = apply(state, Count(1, 1))  # worth 4
    assert state.turn == 0 and state.show[0].status == "muggins"
    assert set(legal_actions(state, 0)) == {CallMuggins(0), AcceptCount(0)}
    refused(state, Count(0, 16), WrongPhase)  # the dealer's hand waits for the muggins decision
    refused(state, CallMuggins(1), NotYourTurn)
    state, events = apply(state, CallMuggins(0))
    assert scored(events, "muggins") == [(0, 3)] and events[0].kind == "muggins"
    assert state.scores == (1 + 3, 1 + 1)
    assert state.show[0].muggins == 3 and state.turn == 0  # now the dealer counts its hand


def test_muggins_with_nothing_missed_takes_nothing():
    state, _ = played(MUGGINS)
    state, _ = apply(state, Count(1, 4))
    state, events = apply(state, CallMuggins(0))
    assert scored(events, "muggins") == [(0, 0)] and (events[0].kind, events[0].points) == ("muggins", 0)
    assert state.scores == (1, 5)
    state, _ = run(state, Count(0, 16), AcceptCount(1), Count(0, 2), CallMuggins(1))
    assert state.scores == (17 + 2, 5 + 3) and state.turn is None
    assert [e.muggins for e in state.show] == [0, 0, 3]


def test_manual_count_that_wins_needs_no_muggins_decision():
    state, _ = played(MUGGINS, scores=(100, 117))
    state, events = apply(state, Count(1, 3))
    assert state.phase == "match_over" and state.scores[1] == 121 and state.show[0].status == "done"


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


# --- refusals -----------------------------------------------------------------------------------


def test_discard_refusals():
    state = deal()
    refused(state, D(1, "KH"), IllegalAction, "exactly two")
    refused(state, D(1, "KH 9C AH"), IllegalAction, "exactly two")
    refused(state, Discard(1, (parse_card("KH"), parse_card("KH"))), IllegalAction, "different")
    refused(state, D(1, "KH TD"), CardNotInHand, "Ten of diamonds")
    refused(state, P(1, "KH"), WrongPhase)
    refused(state, Go(1), WrongPhase)
    refused(state, Count(1, 0), WrongPhase)
    refused(state, CallMuggins(1), WrongPhase)
    state, _ = apply(state, D(1, "3S 4S"))
    refused(state, D(1, "KH 9C"), NotYourTurn, "already")
    assert legal_actions(state, 1) == ()
    assert len(legal_actions(state, 0)) == 15


def test_play_refusals():
    state = discarded()
    refused(state, P(0, "TD"), NotYourTurn)  # pone leads
    refused(state, P(1, "TD"), CardNotInHand)
    refused(state, P(1, "3S"), CardNotInHand)  # laid away
    refused(state, D(1, "KH 9C"), WrongPhase)
    refused(state, NextDeal(1), WrongPhase)
    refused(state, CutForDeal(1, 3), WrongPhase)
    state, _ = run(state, P(1, "KH"), P(0, "TD"), P(1, "9C"), Go(0))
    refused(state, Go(0), NotYourTurn)
    refused(state, P(1, "KH"), CardNotInHand)  # already played
    state, _ = run(state, P(1, "AH"))
    refused(state, P(1, "2C"), NotYourTurn)


def test_count_exceeds_31_refused():
    hands = ("KS QS 9D 8D 4S 5S", "KH QH JC 7C 2H 3H")
    state = discarded(hands=hands, discards=("4S 5S", "2H 3H"), starter="AD")
    state, _ = run(state, P(1, "KH"), P(0, "KS"), P(1, "7C"))
    assert state.count == 27
    refused(state, P(0, "QS"), CountExceeds31, "The count is 27")
    refused(state, P(0, "8D"), CountExceeds31)
    assert legal_actions(state, 0) == (Go(0),)


def test_unknown_action_and_bad_seat():
    state = deal()
    refused(state, object(), IllegalAction)
    refused(state, D(5, "KH 9C"), IllegalAction)


def test_new_game_checks():
    with pytest.raises(ValueError):
        new_game(HouseRules(), b"")
    for bad in (1, 5):
        with pytest.raises(ValueError):
            new_game(HouseRules(), b"x", players=bad)
    assert new_game(HouseRules(), b"x", players=2).players == 2
    assert new_game(HouseRules(), b"x", players=3).rules.players == 3  # tests/engine/test_game_multi.py


def test_show_breakdown_kept_in_state():
    state, events = played()
    pone, dealer, crib = state.show
    assert pone.score == score_hand(parse_cards("AH 2C 9C KH"), parse_card("5C"))
    assert [g.text for g in dealer.score.groups] == [
        "Fifteen for 2", "Fifteen for 2", "Pair for 2", "Run of 3 for 3", "Run of 3 for 3", "Flush for 4"]
    assert crib.kind == "crib" and crib.score.crib and crib.awarded == 5
    assert [(e.seat, e.kind, e.points) for e in events if e.kind in ("hand", "crib")] == [
        (1, "hand", 4), (0, "hand", 16), (0, "crib", 5)]
    assert [(e.kind, e.points) for e in events if e.kind in ("hand", "crib")] == [
        ("hand", 4), ("hand", 16), ("crib", 5)]


@pytest.mark.parametrize("name", ["events", "actions", "state", "game", "view", "testing"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(f"games.engine.{name}"), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_legal_actions_bad_seat():
    with pytest.raises(ValueError):
        legal_actions(deal(), 3)
