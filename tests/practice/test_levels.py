"""The trainer's hands and the count check, against the engine's scorer: each level deals what it
says, the record earns the level, and a claim is compared with the true count item by item."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_card, parse_cards
from games.engine.count_check import check_count
from games.engine.scoring import score_hand
from games.practice.levels import LEVELS, TOP, deal, next_level
from games.practice.record import Record


def _score(hand: str, starter: str, crib: bool = False):
    return score_hand(parse_cards(hand), parse_card(starter), crib=crib)


@pytest.mark.parametrize(("level", "right", "streak", "counted", "right_count", "after"), [
    (1, True, 1, 1, 1, 1), (1, True, 2, 2, 2, 1), (1, True, 3, 3, 3, 2),   # three in a row: up one
    (2, True, 4, 4, 4, 2), (2, True, 6, 6, 6, 3), (4, True, 12, 12, 12, 5),
    (5, True, 15, 15, 15, 5),                                              # the top stays the top
    (3, False, 0, 7, 6, 2), (1, False, 0, 1, 0, 1),                        # a miss: down one, not below 1
    (2, False, 0, 9, 8, 1),                                                # no floor before ten hands
    (2, False, 0, 10, 9, 3),                                               # 90%: never below runs with pairs
    (1, True, 1, 20, 15, 2),                                               # 75%
    (2, False, 0, 20, 14, 1),                                              # 70%: no floor
    (4, True, 2, 20, 19, 4),
])
def test_the_level_goes_up_with_the_streak_down_with_a_miss_and_keeps_a_floor(
        level, right, streak, counted, right_count, after):
    assert next_level(level, right=right, streak=streak, counted=counted, right_count=right_count) == after


def test_three_right_in_a_row_take_a_player_up_and_a_miss_takes_them_one_down():
    record = Record()
    levels = []
    for right in (True, True, True, True, True, True, False, True, True, True):
        record = record.after(right)
        levels.append(record.level)
    assert levels == [1, 1, 2, 2, 2, 3, 2, 2, 2, 3]
    assert record == Record(counted=10, right=9, streak=3, best_streak=6, level=3)


@pytest.mark.parametrize("level", range(1, TOP + 1))
def test_each_level_deals_its_kind_of_hand_the_same_for_the_same_seed(level):
    hands = [deal("seed", n, level) for n in range(1, 41)]
    assert hands == [deal("seed", n, level) for n in range(1, 41)]
    assert len({(h.hand, h.starter) for h in hands}) > 30
    scores = [h.score for h in hands]
    assert all(LEVELS[level - 1].fits(s) for s in scores)
    if level == 1:
        assert all(not s.runs and s.flush is None and s.nobs is None for s in scores)
    if level == 2:
        assert all(len(s.runs) == 1 for s in scores)
    if level == 3:
        assert all(len(s.runs) >= 2 for s in scores)  # a double run at the least
    if level == 4:
        assert any(h.crib and h.four_suited and h.score.flush is None for h in hands)  # the crib's rule
        assert any(s.nobs for s in scores) and any(s.flush for s in scores)
    if level == 5:
        assert all(s.total >= 16 for s in scores)


def test_the_top_level_deals_the_29_hand_now_and_then():
    totals = [deal("seed", n, TOP).score.total for n in range(1, 61)]
    assert 29 in totals


def test_a_29_hand_counted_28_missed_his_nobs():
    score = _score("5H 5C 5S JD", "5D")
    check = check_count(28, score.total, score.by_kind)
    assert (score.total, check.right, check.missed, check.over) == (29, False, 1, 0)
    assert check.missed_kinds == ("nobs",)
    assert check_count(29, score.total, score.by_kind).right


def test_a_double_run_counted_as_a_single_run_missed_the_runs_second_half():
    # 3 4 4 5 with a king: 5-K (2), the pair of fours (2), and the run 3-4-5 twice (6).
    score = _score("3H 4S 4D 5C", "KH")
    assert score.by_kind == {"fifteen": 2, "pair": 2, "run": 6, "flush": 0, "nobs": 0}
    check = check_count(7, score.total, score.by_kind)  # one run of three, not two
    assert (check.worth, check.missed, check.over) == (10, 3, 0)
    assert check.missed_kinds == ()  # no kind is worth just 3: the total says no more
    check = check_count(4, score.total, score.by_kind)
    assert check.missed == 6 and check.missed_kinds == ("run",)
    check = check_count(8, score.total, score.by_kind)  # 2 missed: the fifteen or the pair
    assert check.missed_kinds == ("fifteen", "pair")


def test_a_crib_flush_needs_the_starter_a_hand_flush_does_not():
    hand, crib = _score("2H 4H 8H QH", "KS"), _score("2H 4H 8H QH", "KS", crib=True)
    assert (hand.total, crib.total) == (4, 0)  # no fifteen, no pair: only the hand's flush
    check = check_count(4, crib.total, crib.by_kind)
    assert (check.over, check.missed, check.missed_kinds) == (4, 0, ())
    check = check_count(0, hand.total, hand.by_kind)
    assert (check.missed, check.missed_kinds) == (4, ("flush",))
    with_starter = _score("2H 4H 8H QH", "KH", crib=True)
    assert with_starter.by_kind["flush"] == 5


def test_a_claim_below_nothing_is_not_a_count():
    with pytest.raises(ValueError):
        check_count(-1, 4)


def test_a_visitors_record_joins_the_accounts():
    account = Record(10, 9, 4, 6, 3)
    assert account.then(Record()) == account
    assert account.then(Record(3, 3, 3, 3, 2)) == Record(13, 12, 7, 7, 3)
    assert account.then(Record(3, 2, 1, 1, 4)) == Record(13, 11, 1, 6, 4)
    assert Record.from_dict({"counted": "x"}) == Record()
    assert Record.from_dict({"counted": 2, "right": 5, "streak": 9, "best_streak": 0, "level": 9}) == \
        Record(2, 2, 2, 2, 5)
