"""A lay-away in winning chances: the grouped sums against a plain walk of the same deal, and
what the chances do near the end of a game."""

from __future__ import annotations

from math import floor

import pytest

from games.engine.cards import DECK, parse_cards
from games.engine.players.discard import CribOdds, discard_table
from games.engine.players.discard_chances import CRIB_REACH, discard_chances, peg_shift
from games.engine.scoring import hand_total
from games.engine.winprob import deal_odds_measured, peg_out, win_chance


def _fractional(value: float):
    low = floor(value)
    return [(low, 1 - (value - low)), (low + 1, value - low)]


def plain_walk(hand6, option, is_dealer: bool, mine0: int, theirs0: int, target: int,
               made: float = 0.0, given: float = 0.0) -> float:
    """Every play total, starter and hand of the other side, one by one, in counting order; the
    four's pegging shift (``made``, ``given``) lowers the needs it pegs against, split between
    whole needs."""
    win = 0.0
    need_d, need_p = (target - mine0, target - theirs0) if is_dealer else (target - theirs0, target - mine0)
    shift_d, shift_p = (made, given) if is_dealer else (given, made)
    # Beyond a dealer's reach the crib counts at its mean, as in the lay-away itself.
    crib = (CribOdds(hand6, is_dealer).odds(option.laid_away) if need_d <= CRIB_REACH
            else {abs(option.expected_crib): 1.0})
    for nd, qd in _fractional(max(1.0, need_d - shift_d)):
        for np_, qp in _fractional(max(1.0, need_p - shift_p)):
            if qd * qp:
                win += qd * qp * _walk_at(hand6, option, crib, is_dealer, mine0, theirs0, target, nd,
                                          np_, made, given)
    return win


def _walk_at(hand6, option, crib, is_dealer, mine0, theirs0, target, need_d, need_p, made, given) -> float:
    odds = deal_odds_measured()
    n = odds.samples
    win = peg_out(odds, need_d, need_p)[0 if is_dealer else 1] / n
    theirs_hand = odds.pone_show if is_dealer else odds.dealer_hand
    total_hands = sum(theirs_hand.values())
    starters = [s for s in DECK if s not in set(hand6)]
    for (d, p), c in odds.peg_totals.items():
        if d >= need_d or p >= need_p:
            continue
        mine, theirs = (mine0 + d, theirs0 + p) if is_dealer else (mine0 + p, theirs0 + d)
        for s in starters:
            x = hand_total(option.kept, s)
            for h, ch in theirs_hand.items():
                q = c / n / len(starters) * ch / total_hands
                if is_dealer:  # the pone (them) counts first, then my hand and crib
                    for g, qg in _fractional(given):
                        if theirs + g + h >= target:
                            continue
                        for cv, qc in crib.items():
                            for k, qk in _fractional(x + cv + made):
                                win += q * qg * qc * qk * win_chance(mine + k, theirs + g + h, False, target)
                else:  # I count first, then their hand and crib
                    for xm, qx in _fractional(x + made):
                        if mine + xm >= target:
                            win += q * qx
                            continue
                        for cv, qc in crib.items():
                            for k, qk in _fractional(h + cv + given):
                                win += q * qx * qc * qk * win_chance(mine + xm, theirs + k, True, target)
    return win


@pytest.mark.parametrize("is_dealer,mine,theirs", [(True, 100, 104), (False, 97, 109), (False, 40, 30)])
def test_the_grouped_sums_are_a_plain_walk_of_the_deal(is_dealer, mine, theirs):
    hand = parse_cards("5H 5C JD 6S KC 2D")
    chances = {c.option.laid_away: c.win for c in discard_chances(hand, is_dealer, mine, theirs)}
    for option in discard_table(hand, is_dealer)[:3]:
        assert chances[option.laid_away] == pytest.approx(
            plain_walk(hand, option, is_dealer, mine, theirs, 121), abs=1e-9)


@pytest.mark.parametrize("cards", ["5H 5C JD 6S KC 2D", "AH 2H 3H 9H JH KD", "7C 8C 9C 9D QS KS"])
def test_a_cribs_odds_are_a_distribution_whose_mean_is_the_expected_crib(cards):
    hand = parse_cards(cards)
    for is_dealer in (True, False):
        cribs = CribOdds(hand, is_dealer)
        for option in discard_table(hand, is_dealer):
            odds = cribs.odds(option.laid_away)
            assert sum(odds.values()) == pytest.approx(1.0)
            assert sum(p * q for p, q in odds.items()) == pytest.approx(abs(option.expected_crib))
            assert min(odds) >= 0 and max(odds) <= 29


def test_two_fives_in_the_crib_reach_twelve_far_more_often_than_a_ten_and_a_king():
    hand = parse_cards("5H 5C TD KS 3C 9H")
    cribs = CribOdds(hand, is_dealer=True)

    def at_least(laid, points):
        return sum(q for p, q in cribs.odds(parse_cards(laid)).items() if p >= points)

    assert at_least("5H 5C", 12) > 4 * at_least("TD KS", 12)


@pytest.mark.parametrize("is_dealer,mine,theirs", [(True, 104, 112), (False, 113, 106)])
def test_near_the_end_a_fours_pegging_moves_who_pegs_out_first(is_dealer, mine, theirs):
    hand = parse_cards("AH 2C 3D 4S KC QD")
    ranked = discard_chances(hand, is_dealer, mine, theirs, pegging=True)
    chances = {c.option.laid_away: c.win for c in ranked}
    for option in discard_table(hand, is_dealer)[:3]:
        made, given = peg_shift(option.kept, is_dealer)
        assert chances[option.laid_away] == pytest.approx(
            plain_walk(hand, option, is_dealer, mine, theirs, 121, made, given), abs=1e-9)


def test_far_from_the_end_the_best_split_is_the_best_in_points():
    hands = (("5H 5C JD 6S KC 2D", True), ("AH 2C 3D 9S TC KD", False), ("7H 8H 9C 9D QS KS", False))
    for cards, dealer in hands:
        hand = parse_cards(cards)
        assert discard_chances(hand, dealer, 10, 14)[0].option == discard_table(hand, dealer)[0]


def test_a_pone_one_count_from_home_keeps_a_hand_that_surely_counts_it():
    # Pone at 117 needs four against a dealer far behind: a split keeping both fives counts at least
    # two fifteens on any starter; among those, points decide.
    hand = parse_cards("5H 5C KD QS 3C 9H")
    chances = discard_chances(hand, is_dealer=False, my_score=117, their_score=100)
    assert set(chances[0].option.kept) == set(parse_cards("5H 5C KD QS"))
    assert chances[0].win == pytest.approx(1.0)
    assert all(hand_total(chances[0].option.kept, s) >= 4 for s in DECK if s not in hand)
    assert chances[-1].win < 0.8
    # Against a dealer who needs two, the dealer usually pegs them first: the same hand wins far less.
    assert discard_chances(hand, is_dealer=False, my_score=117, their_score=119)[0].win < 0.4


def test_every_chance_is_a_probability_and_the_end_is_certain():
    hand = parse_cards("AH 2C 3D 9S TC KD")
    for c in discard_chances(hand, True, 60, 80):
        assert 0.0 <= c.win <= 1.0
    assert discard_chances(hand, False, 120, 0)[0].win == pytest.approx(1.0, abs=1e-3)
