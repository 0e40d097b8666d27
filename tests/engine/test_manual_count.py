"""Manual counting by the traditional rule: one claim per hand or crib (RULES.md, House rules).

An exact claim pegs what the hand is worth; an under-claim pegs the claim (with muggins the
opponent may take the rest); an over-claim pegs the true worth, and with muggins the opponent on
the counter's left pegs the excess as a penalty. In ``played()``'s deal the pone (seat 1) holds a
hand worth 4, the dealer (seat 0) one worth 16 and a crib worth 5, and each pegs 1 in the play.
"""

from __future__ import annotations

import pytest

from games.engine.actions import AcceptCount, CallMuggins, Count, NextDeal
from games.engine.errors import IllegalAction, NotYourTurn, WrongPhase
from games.engine.game import apply, legal_actions
from games.engine.rules import HouseRules
from games.engine.view import view
from tests.engine.game_support import (
    HANDS3,
    HANDS4,
    PLAY3,
    PLAY4,
    deal3,
    deal4,
    kinds,
    lay_away_last,
    parse_moves,
    played,
    refused,
    run,
    scored,
)

MANUAL = HouseRules(manual_counting=True)
MUGGINS = HouseRules(manual_counting=True, muggins=True)


def test_exact_claim_pegs_the_worth_and_moves_on():
    state, _ = played(MANUAL)
    state, events = apply(state, Count(1, 4))
    assert kinds(events) == ["hand"] and scored(events, "hand") == [(1, 4)]
    assert state.scores == (1, 5) and state.show[0].awarded == 4 and state.show[0].muggins == 0
    assert state.turn == 0  # the dealer counts next


def test_one_claim_only_the_hand_cannot_be_counted_again():
    state, _ = played(MANUAL)
    state, _ = apply(state, Count(1, 9))
    refused(state, Count(1, 4), NotYourTurn)  # the dealer's hand is due now, not the pone's again


def test_under_claim_without_muggins_loses_the_rest():
    state, _ = played(MANUAL)
    state, events = apply(state, Count(1, 2))
    assert scored(events, "hand") == [(1, 2)] and state.scores == (1, 3)
    assert state.show[0].status == "done" and state.turn == 0


def test_under_claim_with_muggins_the_opponent_takes_the_rest():
    state, _ = played(MUGGINS)
    state, _ = apply(state, Count(1, 2))
    assert state.show[0].status == "muggins" and state.turn == 0
    state, events = apply(state, CallMuggins(0))
    assert scored(events, "muggins") == [(0, 2)] and state.scores == (3, 3)


def test_over_claim_without_muggins_pegs_the_true_worth_and_nothing_else():
    state, _ = played(MANUAL)
    state, events = apply(state, Count(1, 12))  # worth 4
    assert kinds(events) == ["over_count", "hand"]
    assert (events[0].seat, events[0].count, events[0].detail) == (1, 12, "hand")
    assert scored(events, "hand") == [(1, 4)] and state.scores == (1, 5)
    entry = state.show[0]
    assert (entry.status, entry.claimed, entry.awarded, entry.muggins) == ("done", 12, 4, 0)
    assert state.turn == 0


def test_over_claim_with_muggins_the_opponent_pegs_the_excess():
    state, _ = played(MUGGINS)
    state, events = apply(state, Count(1, 12))  # worth 4: 8 too many
    assert kinds(events) == ["over_count", "hand", "over_count_penalty"]
    assert scored(events, "over_count_penalty") == [(0, 8)] and events[-1].detail == "hand"
    assert state.scores == (1 + 8, 1 + 4)
    entry = state.show[0]
    assert (entry.status, entry.claimed, entry.awarded, entry.muggins) == ("done", 12, 4, 8)
    # Nothing was missed, so there is no muggins question: the dealer counts at once.
    assert state.turn == 0 and state.show[-1].seat == 0 and state.show[-1].status == "due"
    assert legal_actions(state, 1) == ()


def test_over_claimed_crib_penalty_goes_to_the_pone():
    state, _ = played(MUGGINS)
    state, _ = run(state, Count(1, 4), AcceptCount(0), Count(0, 16), AcceptCount(1))
    assert state.show[-1].kind == "crib" and state.turn == 0
    state, events = apply(state, Count(0, 7))  # worth 5
    assert kinds(events) == ["over_count", "crib", "over_count_penalty"]
    assert scored(events, "crib") == [(0, 5)] and scored(events, "over_count_penalty") == [(1, 2)]
    assert state.scores == (1 + 16 + 5, 5 + 2) and state.turn is None
    assert legal_actions(state, 0) == (NextDeal(0),)


def test_the_seat_sees_the_true_worth_only_after_its_claim():
    state, _ = played(MUGGINS)
    mine = view(state, 1)
    assert mine.show[0].total is None
    assert [a.points for a in mine.legal_actions] == list(range(30))  # no hint of the worth
    state, _ = apply(state, Count(1, 12))
    for seat in (0, 1):
        shown = view(state, seat).show[0]
        assert (shown.claimed, shown.total, shown.awarded, shown.muggins) == (12, 4, 4, 8)


@pytest.mark.parametrize("points", [-1, 30, 99])
def test_a_claim_no_hand_could_be_worth_is_refused(points):
    state, _ = played(MUGGINS)
    refused(state, Count(1, points), IllegalAction, "from 0 to 29")


def test_automatic_counting_still_refuses_a_claim():
    state, _ = played()
    refused(state, Count(1, 12), WrongPhase, "automatically")


# --- a win reached by a count -------------------------------------------------------------------


def test_over_claim_whose_true_worth_wins_ends_the_game_before_any_penalty():
    state, _ = played(MUGGINS, scores=(100, 117))  # pone 118 after the play, hand worth 4
    state, events = apply(state, Count(1, 20))
    assert kinds(events)[-2:] == ["hand", "game_won"] and "over_count_penalty" not in kinds(events)
    assert state.phase == "match_over" and state.match_winner == 1 and state.scores == (101, 122)


def test_over_claim_penalty_takes_the_opponent_out():
    state, _ = played(MUGGINS, scores=(117, 50))  # dealer 118 after the play
    state, events = apply(state, Count(1, 9))  # worth 4: the dealer pegs 5 and goes out
    assert kinds(events)[-3:] == ["hand", "over_count_penalty", "game_won"]
    assert state.phase == "match_over" and state.match_winner == 0 and state.scores == (123, 55)
    assert state.results[-1].skunk == 2  # the pone is double-skunked: 55 is under 61
    assert state.turn is None and state.show[-1].status == "done"


def test_over_claim_penalty_short_of_the_target_leaves_the_show_going():
    state, _ = played(MUGGINS, scores=(110, 50))
    state, _ = apply(state, Count(1, 9))
    assert state.phase == "show" and state.scores == (116, 55) and state.turn == 0


def test_exact_claim_that_wins_needs_no_muggins_question():
    state, events = played(MUGGINS, scores=(100, 117))
    state, events = apply(state, Count(1, 4))
    assert state.phase == "match_over" and "over_count" not in kinds(events)


# --- three and four players ---------------------------------------------------------------------


def test_three_players_the_seat_on_the_left_pegs_the_penalty():
    rules = HouseRules(players=3, manual_counting=True, muggins=True)
    state, _ = run(lay_away_last(deal3(rules), HANDS3), *parse_moves(PLAY3))
    assert state.turn == 0 and state.show[-1].status == "due"
    before = state.scores
    state, events = apply(state, Count(0, 13))  # worth 10
    assert scored(events, "over_count_penalty") == [(1, 3)]
    assert state.scores == (before[0] + 10, before[1] + 3, before[2])
    assert state.turn == 1 and state.show[-1].seat == 1  # seat 1 counts next, no muggins question


def test_three_players_without_muggins_the_excess_goes_nowhere():
    rules = HouseRules(players=3, manual_counting=True)
    state, _ = run(lay_away_last(deal3(rules), HANDS3), *parse_moves(PLAY3))
    before = state.scores
    state, events = apply(state, Count(0, 13))
    assert "over_count_penalty" not in kinds(events)
    assert state.scores == (before[0] + 10, before[1], before[2])


def test_four_players_the_penalty_goes_to_the_other_partnership():
    rules = HouseRules(players=4, manual_counting=True, muggins=True)
    state, _ = run(lay_away_last(deal4(rules), HANDS4), *parse_moves(PLAY4))
    entry = state.show[-1]
    counter, worth, before = entry.seat, entry.score.total, state.scores
    state, events = apply(state, Count(counter, worth + 3))
    [(taker, points)] = scored(events, "over_count_penalty")
    assert points == 3 and taker % 2 != counter % 2 and taker == (counter + 1) % 4
    side = counter % 2
    after = list(before)
    after[side] += worth
    after[1 - side] += 3
    assert state.scores == tuple(after)
