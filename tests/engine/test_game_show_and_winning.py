"""The show and the game's end, from fixed decks (RULES.md): a win in the play skips the show, the
pone counts first and may win before the dealer counts, the peg-out zone (the stink hole, the last five
holes), manual counting with muggins, and the show's breakdown kept in the state."""

from __future__ import annotations

from games.engine.actions import AcceptCount, CallMuggins, Count, NextDeal
from games.engine.cards import parse_card, parse_cards
from games.engine.errors import GameOver, IllegalAction, NotYourTurn, WrongPhase
from games.engine.game import apply, legal_actions
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from tests.engine.game_support import (
    MANUAL,
    MUGGINS,
    P,
    discarded,
    kinds,
    parse_moves,
    played,
    refused,
    run,
    scored,
)

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
