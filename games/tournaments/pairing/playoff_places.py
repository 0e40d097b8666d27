"""Who is sure to qualify for the playoff, and who is sure not to, before the qualifying ends.

Qualifiers are marked only once every qualifying match is decided or the results still to come can
no longer change them. ``qualification`` gives a safe, conservative answer: someone is marked in
only if no results still possible could push them out of the top ``K``, and out only if none could
bring them in. A tie on points counts against certainty (its tie-breaks are still to be played).

>>> from .standings import MatchResult, standings
>>> table = standings("abcd", [MatchResult("a", "c", "a", 1, 0, 4, 0, 70),
...                            MatchResult("b", "d", "b", 1, 0, 2, 0, 10),
...                            MatchResult("a", "d", "a", 1, 0, 4, 0, 65),
...                            MatchResult("b", "c", "b", 1, 0, 2, 0, 20)])
>>> [(row.player, row.points) for row in table]
[('a', 8), ('b', 4), ('d', 0), ('c', 0)]
>>> q = qualification(table, 2, remaining=[("a", "b"), ("c", "d")], max_points=4)
>>> sorted(q.qualified), sorted(q.eliminated), sorted(q.open)
(['a'], [], ['b', 'c', 'd'])
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from .standings import Standing


@dataclass(frozen=True)
class Qualification:
    """The players sure to qualify, sure not to, and still open."""

    qualified: frozenset
    eliminated: frozenset
    open: frozenset

    @property
    def settled(self) -> bool:
        """Nobody is open: the playoff field is known.

        >>> Qualification(frozenset("ab"), frozenset("c"), frozenset()).settled
        True
        """
        return not self.open


def qualification(
    table: Sequence[Standing],
    qualifiers: int,
    *,
    remaining: Iterable[tuple[Hashable, Hashable | None]] = (),
    rounds_left: int = 0,
    max_points: int,
    bye_points: int = 2,
) -> Qualification:
    """Who is sure to be in the top ``qualifiers`` of the qualifying and who is sure not to be.

    ``table`` is the standings so far (``standings``), ordered by points first as the ACC order
    is. ``remaining`` are the matches paired but not decided, ``(a, None)`` a bye still to be
    credited (``bye_points``); ``rounds_left`` the rounds not paired yet. ``max_points`` is the
    most one player can take from one match (``Scoring.most_match_points``); a player may take
    anything from nothing up to it from each match and each round left (or a bye, if worth more).

    The bound: a player is in when fewer than ``qualifiers`` others could reach or pass the points
    they are sure of; out when at least ``qualifiers`` others are sure of more than they could
    reach. When nothing is left to play the table is final: players are in or out by rank, and only
    a group level on every tie-break across the line stays open (for a cut of the cards, say).
    Withdrawn players are out and threaten nobody.

    >>> from .standings import MatchResult, standings
    >>> final = standings("abcd", [MatchResult("a", "b", "a", 1, 0, 2, 0, 9),
    ...                            MatchResult("c", "d", "c", 1, 0, 2, 0, 9)])
    >>> q = qualification(final, 1, max_points=3)
    >>> sorted(q.open), sorted(q.eliminated)
    (['a', 'c'], ['b', 'd'])
    >>> sorted(qualification(final, 2, max_points=3).qualified)
    ['a', 'c']
    >>> sorted(qualification(final, 2, rounds_left=1, max_points=3).open)
    ['a', 'b', 'c', 'd']
    """
    if qualifiers < 0 or rounds_left < 0 or max_points < 0 or bye_points < 0:
        raise ValueError("qualifiers, rounds left and points cannot be negative")
    active = [row for row in table if not row.withdrawn]
    out = {row.player for row in table if row.withdrawn}
    pending = list(remaining)
    if not pending and not rounds_left:
        return _final(active, qualifiers, out)

    low = {row.player: row.points for row in active}
    high = dict(low)
    per_round = max(max_points, bye_points)
    for player in high:
        high[player] += rounds_left * per_round
    for a, b in pending:
        for player in (a, b):
            if player not in low:
                continue
            if b is None:  # a bye is certain
                low[player] += bye_points
                high[player] += bye_points
            else:
                high[player] += max_points

    # Counting each rival's best alone overstates the danger (rivals who meet cannot all win),
    # which keeps the answer safe; sorting makes each count a binary search.
    highs = sorted(high.values())
    lows = sorted(low.values())
    qualified, eliminated = set(), set(out)
    for p in low:
        # Others who could end level with or above what p is sure of (p's own best counted off).
        threats = len(highs) - bisect_left(highs, low[p]) - (high[p] >= low[p])
        if threats < qualifiers:
            qualified.add(p)
        # Others sure of more than p could reach.
        ahead = len(lows) - bisect_right(lows, high[p])
        if ahead >= qualifiers:
            eliminated.add(p)
    undecided = {row.player for row in table} - qualified - eliminated
    return Qualification(frozenset(qualified), frozenset(eliminated), frozenset(undecided))


def _final(active: list[Standing], qualifiers: int, out: set) -> Qualification:
    qualified: set = set()
    eliminated = set(out)
    undecided: set = set()
    start = 0
    # Players level on everything share a rank: a group is in only if all of it fits.
    for _, rows in groupby(active, key=lambda row: row.rank):
        group = {row.player for row in rows}
        if start + len(group) <= qualifiers:
            qualified |= group
        elif start >= qualifiers:
            eliminated |= group
        else:
            undecided |= group
        start += len(group)
    return Qualification(frozenset(qualified), frozenset(eliminated), frozenset(undecided))
