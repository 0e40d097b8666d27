"""How often each show score occurs over all 12,994,800 hands (4 cards + a starter).

Fast because of what the score depends on: fifteens, pairs and runs only on the five ranks (the
engine's own table, :data:`games.engine.scoring.RANK_POINTS_TABLE`, the one ``hand_total``
reads); flush and nobs on the suits. So the count walks the 1,820 four-rank hands times 13
starter ranks and, for each, counts the suit assignments giving each flush/nobs bonus by
combinatorics instead of listing them (tests list them for a sample and compare with
``score_hand``).

>>> dist = hand_distribution()
>>> sum(dist.values()), dist[0], dist[29], dist[19]
(12994800, 1009008, 4, 0)
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

from games.engine.cards import JACK
from games.engine.scoring import RANK_POINTS_TABLE, rank_key

MAX_SCORE = 29
HANDS = comb(52, 4) * 48

PUBLISHED_HAND_DISTRIBUTION = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
    8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
    16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680,
    25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}
"""The published table (Steven S. Lumetta, "Amusing Cribbage Facts", quoted by Wikipedia's
"Cribbage statistics"): hands, not cribs."""


def suit_bonus_counts(hand_ranks: tuple[int, ...], starter_rank: int, crib: bool = False) -> dict[int, int]:
    """For a hand of these four ranks and a starter of ``starter_rank``: ``{flush + nobs points:
    number of hands}`` over every choice of suits (cards all different).

    By symmetry each of the four starter suits gives the same counts, so count one and multiply.
    With the starter's suit fixed, a hand card of the starter's rank has 3 suits left, others 4.

    >>> suit_bonus_counts((1, 2, 3, 11), 5)   # 4 * (4**4 = 256) hands
    {0: 756, 1: 252, 4: 12, 5: 0, 6: 4}
    >>> suit_bonus_counts((5, 5, 5, 11), 5)   # the 29: 5555 use all suits, the jack may match
    {0: 12, 1: 4}
    """
    counts = {r: hand_ranks.count(r) for r in set(hand_ranks)}
    ways = 1  # hands for one fixed starter suit
    ways_but_jacks = 1
    for rank, n in counts.items():
        choices = comb(3 if rank == starter_rank else 4, n)
        ways *= choices
        if rank != JACK:
            ways_but_jacks *= choices
    if ways == 0:  # five of a rank
        return {0: 0}
    jacks = counts.get(JACK, 0)
    # Nobs: one hand jack takes the starter's suit (impossible when the starter is a jack itself).
    nobs = ways_but_jacks * comb(3, jacks - 1) if jacks and starter_rank != JACK else 0
    if len(counts) < 4:  # a repeated rank: no flush possible
        per_suit = {0: ways - nobs, 1: nobs}
    else:
        five = 0 if starter_rank in counts else 1  # all four in the starter's suit
        five_nobs = five if jacks else 0
        four = 3  # all four in one of the other three suits (a jack there is not nobs)
        if crib:  # a four-card flush scores nothing in the crib
            four = 0
        per_suit = {
            0: ways - five - four - (nobs - five_nobs),
            1: nobs - five_nobs,
            4: four,
            5: five - five_nobs,
            6: five_nobs,
        }
    return {bonus: 4 * n for bonus, n in per_suit.items()}


def hand_distribution(crib: bool = False) -> dict[int, int]:
    """``{score: number of hands}`` for every score 0..29 (0 where none) over all 12,994,800
    hands (4 cards and a starter); ``crib=True`` scores them as cribs (only 5-card flushes).
    """
    dist = dict.fromkeys(range(MAX_SCORE + 1), 0)
    for hand_ranks in combinations_with_replacement(range(1, 14), 4):
        for starter_rank in range(1, 14):
            if hand_ranks.count(starter_rank) == 4:
                continue
            base = RANK_POINTS_TABLE[rank_key((*hand_ranks, starter_rank))]
            for bonus, n in suit_bonus_counts(hand_ranks, starter_rank, crib).items():
                if n:
                    dist[base + bonus] += n
    return dist
