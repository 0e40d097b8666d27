"""The show's fast path: every five-rank multiset's fifteens, pairs and runs in one table, built at
import (about 80 ms), and :func:`hand_total`, a hand's total without its breakdown (computer players
and the distribution count millions of hands). ``games.engine.scoring`` gives these names too."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations_with_replacement
from types import MappingProxyType

from games.engine.cards import JACK, Card

# Points for n cards of one rank: every pair of them scores 2, so n * (n - 1).
PAIR_POINTS = (0, 0, 2, 6, 12)


def rank_points(ranks: Iterable[int]) -> int:
    """Points from fifteens, pairs and runs of a multiset of ranks (1..13), any number of cards.

    This is the reference the fast table is built from; suits play no part in these three.

    >>> rank_points([5, 5, 5, 5, 11]), rank_points([4, 4, 5, 5, 6]), rank_points([2, 4, 6, 8, 13])
    (28, 24, 0)
    """
    counts = [0] * 15  # index 0 and 14 stay 0 so runs stop at the ends
    ways = [1] + [0] * 15  # ways[s]: subsets with count value s (values past 15 are not needed)
    for rank in ranks:
        counts[rank] += 1
        value = min(rank, 10)
        for total in range(15, value - 1, -1):
            ways[total] += ways[total - value]
    points = 2 * ways[15] + sum(PAIR_POINTS[n] for n in counts)
    rank = 1
    while rank <= 13:
        if counts[rank]:
            start, combos = rank, 1
            while counts[rank]:
                combos *= counts[rank]
                rank += 1
            length = rank - start
            if length >= 3:
                points += length * combos
        rank += 1
    return points


# A five-rank multiset is keyed by the sum of 5**(rank-1) over its cards: a rank appears at most
# four times, so the base-5 digits are the rank counts and the key is unique and order-free.
_RANK_KEY = (0,) + tuple(5 ** (rank - 1) for rank in range(1, 14))
_RANK_POINTS: dict[int, int] = {
    sum(_RANK_KEY[r] for r in ranks): rank_points(ranks)
    for ranks in combinations_with_replacement(range(1, 14), 5)
    if max(ranks.count(r) for r in ranks) <= 4
}


def rank_key(ranks: Iterable[int]) -> int:
    """The table key of a five-rank multiset (see :data:`RANK_POINTS_TABLE`)."""
    return sum(_RANK_KEY[r] for r in ranks)


RANK_POINTS_TABLE: Mapping[int, int] = MappingProxyType(_RANK_POINTS)
"""``{rank_key(ranks): rank_points(ranks)}`` for all 6,175 multisets of five ranks (read only)."""


def hand_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The show total of 4 ``hand`` cards plus the ``starter``: the fast path, no breakdown.

    Trusts its input (4 distinct cards and a fifth, not among them); use :func:`score_hand` for
    checked input and a breakdown. Any 4-sequence works (tuple, list).

    >>> from games.engine.cards import parse_card, parse_cards
    >>> hand_total(parse_cards("2H 4H 6H 8H"), parse_card("KH")), hand_total(
    ...     parse_cards("2H 4H 6H 8H"), parse_card("KS"), crib=True)
    (5, 0)
    """
    a, b, c, d = hand
    key = _RANK_KEY
    points = _RANK_POINTS[key[a.rank] + key[b.rank] + key[c.rank] + key[d.rank] + key[starter.rank]]
    suit = a.suit
    if b.suit == suit and c.suit == suit and d.suit == suit:
        if starter.suit == suit:
            points += 5
        elif not crib:
            points += 4
    suit = starter.suit
    if (
        (a.rank == JACK and a.suit == suit)
        or (b.rank == JACK and b.suit == suit)
        or (c.rank == JACK and c.suit == suit)
        or (d.rank == JACK and d.suit == suit)
    ):
        points += 1
    return points
