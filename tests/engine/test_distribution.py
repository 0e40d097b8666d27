"""The distribution of show scores over all 12,994,800 hands, and the fast scorer behind it."""

from __future__ import annotations

import random
import time
from collections import Counter
from itertools import combinations, combinations_with_replacement, product

import pytest

from games.engine.cards import DECK, SUITS, Card
from games.engine.distribution import hand_distribution, suit_bonus_counts
from games.engine.scoring import RANK_POINTS_TABLE, hand_total, rank_key, score_hand

# Steven S. Lumetta, "Amusing Cribbage Facts" (also in Wikipedia's "Cribbage statistics"), copied
# here rather than imported so a change to the module's copy cannot make this test agree with itself.
PUBLISHED = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508, 6: 1_800_268,
    7: 751_324, 8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680, 12: 317_340, 13: 19_656,
    14: 90_100, 15: 9_168, 16: 58_248, 17: 11_196, 18: 2_708, 19: 0, 20: 8_068, 21: 2_496,
    22: 444, 23: 356, 24: 3_680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}


def naive_score(hand: list[Card], starter: Card, crib: bool) -> int:
    """The rules read literally, as slowly as you like: an independent reference scorer."""
    cards = [*hand, starter]
    points = 0
    for size in range(2, 6):
        for combo in combinations(cards, size):
            if sum(min(c.rank, 10) for c in combo) == 15:
                points += 2
    points += 2 * sum(1 for a, b in combinations(cards, 2) if a.rank == b.rank)
    for size in (5, 4, 3):  # the longest runs only: a run inside a longer one is not counted again
        runs = [
            combo
            for combo in combinations(cards, size)
            if len({c.rank for c in combo}) == size
            and max(c.rank for c in combo) - min(c.rank for c in combo) == size - 1
        ]
        if runs:
            points += size * len(runs)
            break
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            points += 5
        elif not crib:
            points += 4
    points += any(c.rank == 11 and c.suit == starter.suit for c in hand)
    return points


@pytest.mark.slow
def test_full_distribution_equals_the_published_table() -> None:
    start = time.perf_counter()
    dist = hand_distribution()
    seconds = time.perf_counter() - start
    assert dist == PUBLISHED
    assert sum(dist.values()) == 12_994_800
    assert [s for s, n in dist.items() if n == 0] == [19, 25, 26, 27]
    assert seconds < 5, f"the distribution took {seconds:.2f} s"


@pytest.mark.slow
def test_crib_distribution() -> None:
    dist = hand_distribution(crib=True)
    assert sum(dist.values()) == 12_994_800
    # Wikipedia, "Cribbage statistics": 1,022,208 zero cribs (four-card flushes no longer count).
    assert dist[0] == 1_022_208
    # Only flushes differ: the scores no flush can reach are the same.
    assert dist[29] == 4 and dist[28] == 76 and dist[1] == PUBLISHED[1]


def test_rank_table_matches_breakdown_and_naive_scorer_for_every_rank_multiset() -> None:
    multisets = [r for r in combinations_with_replacement(range(1, 14), 5) if max(map(r.count, r)) <= 4]
    assert len(multisets) == len(RANK_POINTS_TABLE) == 6175
    for ranks in multisets:
        # Any suits will do (copies of a rank take S, H, D, C in turn); flush and nobs are set aside.
        seen: Counter[int] = Counter()
        cards = []
        for rank in ranks:
            cards.append(Card(rank, SUITS[seen[rank]]))
            seen[rank] += 1
        starter = cards.pop()
        score = score_hand(cards, starter)
        expected = RANK_POINTS_TABLE[rank_key(ranks)]
        suited = score.by_kind["flush"] + score.by_kind["nobs"]
        assert sum(g.points for g in score.fifteens + score.pairs + score.runs) == expected, ranks
        assert naive_score(cards, starter, False) - suited == expected, ranks


def _hands_of_class(hand_ranks: tuple[int, ...], starter_rank: int):
    """Every (hand, starter) with these ranks: all ways of giving the ranks distinct suits."""
    counts = Counter(hand_ranks)
    for choice in product(*(combinations(SUITS, n) for n in counts.values())):
        hand = [Card(rank, suit) for rank, suits in zip(counts, choice, strict=True) for suit in suits]
        for suit in SUITS:
            starter = Card(starter_rank, suit)
            if starter not in hand:
                yield hand, starter


def _sample_classes() -> list[tuple[tuple[int, ...], int]]:
    chosen = [
        ((1, 2, 3, 11), 5),  # jack, distinct ranks: flushes and nobs both possible
        ((5, 5, 5, 11), 5),  # the 29
        ((5, 5, 5, 5), 11),  # jack starter
        ((2, 4, 11, 13), 11),  # jack starter with a jack in hand: never nobs
        ((2, 4, 6, 8), 8),  # starter rank in hand: no five-card flush
        ((11, 11, 3, 4), 7),  # two jacks
        ((11, 11, 11, 11), 1),
        ((1, 1, 1, 1), 13),
        ((9, 10, 12, 13), 11),
    ]
    rng = random.Random(12994800)
    multisets = list(combinations_with_replacement(range(1, 14), 4))
    while len(chosen) < 160:
        hand_ranks, starter_rank = rng.choice(multisets), rng.randint(1, 13)
        if hand_ranks.count(starter_rank) < 4:
            chosen.append((hand_ranks, starter_rank))
    return chosen


@pytest.mark.parametrize("crib", [False, True])
def test_suit_counting_matches_enumeration_with_score_hand(crib: bool) -> None:
    for hand_ranks, starter_rank in _sample_classes():
        base = RANK_POINTS_TABLE[rank_key((*hand_ranks, starter_rank))]
        hands = _hands_of_class(hand_ranks, starter_rank)
        enumerated = Counter(score_hand(hand, starter, crib).total - base for hand, starter in hands)
        counted = {bonus: n for bonus, n in suit_bonus_counts(hand_ranks, starter_rank, crib).items() if n}
        assert counted == dict(enumerated), (hand_ranks, starter_rank)


def test_fast_path_matches_direct_enumeration_on_random_hands() -> None:
    rng = random.Random(5)
    for _ in range(4000):
        cards = rng.sample(DECK, 5)
        hand, starter = cards[:4], cards[4]
        crib = rng.random() < 0.3
        score = score_hand(hand, starter, crib)
        slow = sum(g.points for g in score.groups)
        naive = naive_score(hand, starter, crib)
        assert hand_total(hand, starter, crib) == score.total == slow == naive, cards
