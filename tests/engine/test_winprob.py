"""The win-probability tables: the solver against a brute-force walk of the same model, and the
stored tables' shape and known values."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from games.engine.winprob import TARGETS, DealSample, _table, deal_odds, solve, win_chance

SAMPLES = (
    DealSample(pegs=((False, 2), (True, 1)), pone_show=4, dealer_hand=6, crib=3),
    DealSample(pegs=((True, 2), (False, 1), (True, 3)), pone_show=0, dealer_hand=9),
    DealSample(pegs=((False, 1),), pone_show=8, dealer_hand=2),
    DealSample(pegs=((True, 1), (False, 2), (False, 2), (True, 1)), pone_show=12, dealer_hand=0),
)


def brute_force(target: int):
    """P(the dealer wins) by walking every combination of one deal's play, pone's show and the
    dealer's show, each drawn on its own from the samples, in the order the points come."""
    n = len(SAMPLES)

    @cache
    def dealer_wins(a: int, b: int) -> Fraction:
        total = Fraction(0)
        for play, pone, dealer in product(SAMPLES, repeat=3):
            q = Fraction(1, n**3)
            d, p, decided = a, b, None
            for is_dealer, points in play.pegs:
                if is_dealer:
                    d += points
                    if d >= target:
                        decided = True
                        break
                else:
                    p += points
                    if p >= target:
                        decided = False
                        break
            if decided is None:
                p += pone.pone_show
                if p >= target:
                    decided = False
                else:
                    d += dealer.dealer_show
                    if d >= target:
                        decided = True
            if decided is None:
                total += q * (1 - dealer_wins(p, d))
            elif decided:
                total += q
        return total

    return dealer_wins


@pytest.mark.parametrize("target", [9, 15])
def test_the_solver_agrees_with_a_walk_of_every_deal(target: int) -> None:
    table = solve(deal_odds(SAMPLES), target)
    expected = brute_force(target)
    for a, b in product(range(target), repeat=2):
        assert table[a][b] == pytest.approx(float(expected(a, b)), abs=1e-9), (a, b)


@pytest.mark.parametrize("target", TARGETS)
def test_a_stored_table_covers_every_score_and_never_falls_when_a_side_gains(target: int) -> None:
    table = _table(target)
    assert len(table) == target and all(len(row) == target for row in table)
    for a, b in product(range(target), repeat=2):
        assert 0 <= table[a][b] <= 10_000
        if a + 1 < target:  # one more point for the dealer never hurts it (to the rounding)
            assert table[a + 1][b] >= table[a][b] - 1, (a, b)
        if b + 1 < target:
            assert table[a][b + 1] <= table[a][b] + 1, (a, b)


def test_known_positions() -> None:
    # The first dealer's edge: about 56% in published tables of games to 121.
    assert 0.54 <= win_chance(0, 0, i_deal=True) <= 0.58
    assert win_chance(0, 0, i_deal=True) == pytest.approx(1 - win_chance(0, 0, i_deal=False))
    assert win_chance(121, 100, i_deal=False) == 1.0 and win_chance(100, 121, i_deal=True) == 0.0
    # Pone at 115 against a dealer at 100 needs six: its hand usually brings them first.
    assert win_chance(115, 100, i_deal=False) > 0.75
    with pytest.raises(ValueError):
        win_chance(0, 0, i_deal=True, target=31)
