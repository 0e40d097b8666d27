"""The expert's discard expectations, the hint table and the after-game analysis."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.engine.cards import DECK, parse_cards
from games.engine.players import analyse_discard, discard_table, hand_table
from games.engine.players.endgame import PEG_AVERAGE, endgame_choice, starter_scores
from games.engine.players.throw_model import throw_factor
from games.engine.scoring import hand_total, score_hand

# Fixed hands for the brute-force check: pairs and fives, a six-card flush with a jack, two jacks
# and a suited pair to lay away, and a plain hand.
FIXED = [
    ("5H 5C JD 6S KC 2D", True),
    ("JH 4H 7H 9H QH 2H", False),
    ("JS 5S 5D TS QS JC", True),
    ("AC 3D 7S 8H 9C KD", False),
]


def brute_force(hand6, is_dealer: bool, model: str) -> dict[frozenset, tuple[float, float]]:
    """Every starter and every pair the opponent could lay away, scored one by one with score_hand's
    fast path: {laid away: (expected hand, signed expected crib)}."""
    factor = throw_factor(opponent_is_dealer=not is_dealer) if model == "expert" else None
    unseen = [c for c in DECK if c not in hand6]
    out = {}
    for kept in combinations(hand6, 4):
        laid = tuple(c for c in hand6 if c not in kept)
        hand = sum(hand_total(kept, s) for s in unseen) / len(unseen)
        total = weight_sum = 0.0
        for a, b in combinations(unseen, 2):
            w = factor[tuple(sorted((a.rank, b.rank)))] if factor else 1.0
            crib = (*laid, a, b)
            for s in unseen:
                if s != a and s != b:
                    total += w * hand_total(crib, s, crib=True)
                    weight_sum += w
        out[frozenset(laid)] = (hand, (total / weight_sum) * (1 if is_dealer else -1))
    return out


@pytest.mark.parametrize(("text", "is_dealer"), FIXED)
def test_expert_expectations_equal_brute_force(text: str, is_dealer: bool) -> None:
    hand6 = parse_cards(text)
    expected = brute_force(hand6, is_dealer, "expert")
    table = discard_table(hand6, is_dealer)
    assert len(table) == 15
    for option in table:
        hand, crib = expected[frozenset(option.laid_away)]
        assert option.expected_hand == pytest.approx(hand, abs=1e-9)
        assert option.expected_crib == pytest.approx(crib, abs=1e-9)
        assert option.net == pytest.approx(hand + crib, abs=1e-9)


def test_uniform_model_equals_brute_force() -> None:
    hand6 = parse_cards(FIXED[0][0])
    expected = brute_force(hand6, False, "uniform")
    for option in discard_table(hand6, False, opponent_model="uniform"):
        hand, crib = expected[frozenset(option.laid_away)]
        assert option.expected_crib == pytest.approx(crib, abs=1e-9)
        assert option.expected_hand == pytest.approx(hand, abs=1e-9)


def test_hand_expectation_matches_score_hand_breakdowns() -> None:
    # score_hand (with its full breakdown) and the table agree on a flush hand with nobs.
    hand6 = parse_cards("JH 4H 7H 9H QH 2H")
    kept = parse_cards("JH 4H 7H 9H")
    unseen = [c for c in DECK if c not in hand6]
    mean = sum(score_hand(kept, s).total for s in unseen) / 46
    row = next(o for o in discard_table(hand6, False) if set(o.kept) == set(kept))
    assert row.expected_hand == pytest.approx(mean)


def test_table_shape_and_order() -> None:
    rng = random.Random(5)
    for _ in range(50):
        hand6 = tuple(rng.sample(DECK, 6))
        for is_dealer in (True, False):
            table = discard_table(hand6, is_dealer)
            nets = [o.net for o in table]
            assert nets == sorted(nets, reverse=True)
            assert {frozenset(o.laid_away) for o in table} == {frozenset(p) for p in combinations(hand6, 2)}
            for o in table:
                assert set(o.kept) | set(o.laid_away) == set(hand6) and len(o.kept) == 4
                assert (o.expected_crib >= 0) == is_dealer or o.expected_crib == 0
            assert table == discard_table(hand6, is_dealer)  # deterministic


def test_analysis_totals_add_up() -> None:
    rng = random.Random(11)
    for _ in range(30):
        hand6 = tuple(rng.sample(DECK, 6))
        is_dealer = rng.random() < 0.5
        table = discard_table(hand6, is_dealer)
        for laid in combinations(hand6, 2):
            best, chosen, loss = analyse_discard(hand6, laid, is_dealer)
            assert best == table[0]
            assert frozenset(chosen.laid_away) == frozenset(laid)
            assert loss >= 0
            assert loss == pytest.approx(best.net - chosen.net)
            assert chosen.net == pytest.approx(chosen.expected_hand + chosen.expected_crib)
        assert analyse_discard(hand6, table[0].laid_away, is_dealer).loss == 0


def test_analysis_refuses_cards_not_in_hand() -> None:
    hand6 = parse_cards("5H 5C JD 6S KC 2D")
    with pytest.raises(ValueError):
        analyse_discard(hand6, parse_cards("5H AS"), True)
    with pytest.raises(ValueError):
        discard_table(hand6[:5], True)


def test_known_answers() -> None:
    # Dealer keeps 5-5-J-K and gives the crib 6-2 ... and as pone does not give away the fives.
    dealer = discard_table(parse_cards("5H 5C JD 6S KC 2D"), True)[0]
    assert set(dealer.kept) == set(parse_cards("5H 5C JD KC"))
    pone = discard_table(parse_cards("5H 5C JD 6S KC 2D"), False)[0]
    assert not set(parse_cards("5H 5C")) <= set(pone.laid_away)


def test_standard_table_is_hand_only() -> None:
    rng = random.Random(2)
    for _ in range(20):
        hand6 = tuple(rng.sample(DECK, 6))
        table = hand_table(hand6)
        assert table[0].expected_hand == max(o.expected_hand for o in discard_table(hand6, True))
        assert all(o.expected_crib == 0 for o in table)


def test_endgame_maximises_the_chance_to_count_out() -> None:
    # As pone needing n, the split kept has the best chance of hand + average pegging >= n.
    rng = random.Random(8)
    checked = 0
    for _ in range(40):
        hand6 = tuple(rng.sample(DECK, 6))
        table = discard_table(hand6, False)
        need = rng.randint(6, 20)
        pick = endgame_choice(table, hand6, is_dealer=False, my_score=121 - need, opp_score=100, target=121)

        def chance(option, need=need, hand6=hand6):
            return sum(s + PEG_AVERAGE[False] >= need for s in starter_scores(option.kept, hand6))

        assert chance(pick) == max(chance(o) for o in table)
        checked += pick != table[0]
    assert checked  # the endgame does change some choices
    # Far from the end it is the table's best.
    hand6 = tuple(rng.sample(DECK, 6))
    table = discard_table(hand6, True)
    assert endgame_choice(table, hand6, is_dealer=True, my_score=10, opp_score=20, target=121) == table[0]
