"""Rank-multiset score tables: the fast core of the discard evaluation.

Fifteens, pairs and runs depend only on the ranks of the five cards, never on the suits, so a
five-card show splits into a rank part (looked up here) plus a flush and nobs part (counted by suit
in ``discard.py``). A rank multiset is keyed by the product of one prime per rank: multiplication
commutes, so a key needs no sorting, and unique factorisation makes the key unique.

>>> score5()[rank_key((7, 7, 7, 8, 9))]
21
>>> score5()[rank_key((3, 3, 4, 5, 6))]  # a double run of four (8) + 15s 3+3+4+5 and 4+5+6 (4) + pair
14
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from games.engine.scoring import rank_points

RANKS = range(1, 14)
PRIMES = (0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # PRIMES[rank]; index 0 unused


def rank_key(ranks) -> int:
    """The table key of a rank multiset: the product of ``PRIMES[rank]``."""
    key = 1
    for r in ranks:
        key *= PRIMES[r]
    return key


@cache
def score5() -> dict[int, int]:
    """Rank points of every five-rank multiset, keyed by ``rank_key`` (6,175 entries, built once)."""
    return {
        rank_key(combo): rank_points(combo)
        for combo in combinations_with_replacement(RANKS, 5)
        if combo[0] != combo[4]  # five of a rank cannot happen
    }


# The 455 three-rank multisets: the two cards the opponent lays away plus the starter, as far as
# the rank part of the crib is concerned (in the crib the starter is just a fifth card).
TRIPLES: tuple[tuple[int, int, int], ...] = tuple(combinations_with_replacement(RANKS, 3))
PAIRS: tuple[tuple[int, int], ...] = tuple(combinations_with_replacement(RANKS, 2))


@cache
def crib_vector(low: int, high: int) -> tuple[int, ...]:
    """Rank points of a crib holding ranks ``low <= high`` plus each of ``TRIPLES``, in that order."""
    table = score5()
    base = PRIMES[low] * PRIMES[high]
    # .get: a pair plus three more of its rank cannot happen (its weight is always 0).
    return tuple(table.get(base * PRIMES[a] * PRIMES[b] * PRIMES[c], 0) for a, b, c in TRIPLES)


def triple_weights(unseen: list[int], pair_factor=None) -> list[float]:
    """How many ways (pair laid away by the opponent, starter) give each of ``TRIPLES``.

    ``unseen[r]`` is how many cards of rank ``r`` the deciding player has not seen. The opponent's
    two cards are an unordered pair of unseen cards and the starter one of the 44 others.
    ``pair_factor[(a, b)]`` (``a <= b``), if given, reweights each pair of ranks: a model of what the
    opponent tends to lay away; ``None`` means every pair is equally likely.
    """
    pair_ways: dict[tuple[int, int], float] = {}
    for a, b in PAIRS:
        ways = unseen[a] * (unseen[a] - 1) // 2 if a == b else unseen[a] * unseen[b]
        if ways:
            pair_ways[(a, b)] = ways * (pair_factor[(a, b)] if pair_factor else 1)
    weights = []
    for triple in TRIPLES:
        total = 0.0
        for i, starter in enumerate(triple):
            if i and starter == triple[i - 1]:
                continue  # each distinct starter rank once
            rest = triple[:i] + triple[i + 1 :]
            ways = pair_ways.get(rest)
            if ways:
                left = unseen[starter] - (rest[0] == starter) - (rest[1] == starter)
                total += ways * left
        weights.append(total)
    return weights


