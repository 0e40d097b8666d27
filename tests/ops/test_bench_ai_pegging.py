"""The benchmarks behind the expert's pegging weights: the regression and the paired-deal harness."""

import random

from bench import ai_pegging, peg_calibration
from games.engine.players import play_search, sampling


def test_the_regression_recovers_known_coefficients():
    rng = random.Random(5)
    xs = [(rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(2000)]
    ys = [1.5 + 2.0 * a - 0.5 * b + rng.gauss(0, 0.1) for a, b in xs]
    beta, se = peg_calibration.regress(ys, xs)
    assert [round(b, 1) for b in beta] == [1.5, 2.0, -0.5]
    assert all(0 < s < 0.01 for s in se)


def test_a_deal_gives_each_sides_pegging_and_the_four_shifts():
    dealer, pone, shifts = peg_calibration.one_deal(2, 0)
    assert 0 <= dealer <= 31 and 0 <= pone <= 31 and dealer + pone > 0
    assert len(shifts) == 4 and any(shifts)


def test_the_reference_against_itself_has_no_margin_and_seeing_the_hand_helps():
    assert ai_pegging._chunk((1, 0, 4, False)) == [0.0] * 4
    seen = ai_pegging._chunk((1, 0, 30, True))
    assert sum(seen) > 0 and play_search._opponent_hands is sampling._opponent_hands  # nothing left patched
