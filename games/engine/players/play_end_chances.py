"""The end of the play in winning chances: what the expert's pegging search is worth at a leaf
near the end of a game.

When the last card is laid the rest of the deal is the show, in its order (pone's hand, the
dealer's hand, then the crib), and then the next deal, whose chance comes from the win-probability
table (``winprob``). With both hands' shows known to the search (its own, and the sampled
opponent's on ranks) only the crib is unknown: it counts as a random crib does
(``distribution.hand_distribution(crib=True)``). A leaf is worth ``WIN x (2p - 1)`` for a chance
``p``, the units in which the search already scores a game won (``+WIN``) or lost (``-WIN``) in
the play, so every line is compared by the chance it leads to, not by points.

>>> leaf = LeafChances(target=121, i_am_dealer=False)
>>> leaf.value(need_me=3, need_opp=40, show_me=4, show_opp=0)  # my hand counts me out first
100.0
>>> leaf.value(need_me=30, need_opp=2, show_me=4, show_opp=8) == -100.0  # the dealer counts out
True
>>> -100 < leaf.value(need_me=20, need_opp=20, show_me=8, show_opp=8) < 0  # the dealer's crib
True
"""

from __future__ import annotations

from functools import cache

from games.engine.distribution import hand_distribution
from games.engine.winprob import TARGETS, win_chance

from .situation import WIN


@cache
def crib_odds() -> tuple[tuple[int, float], ...]:
    """A crib's points and their chances (every crib of four cards and a starter)."""
    dist = hand_distribution(crib=True)
    total = sum(dist.values())
    return tuple((k, n / total) for k, n in dist.items() if n)


def applies(target: int, peg_out_zone: int) -> bool:
    """The table exists for this game, and no house rule changes what the show may score."""
    return target in TARGETS and not peg_out_zone


class LeafChances:
    """Leaf values for one decision, remembered by the needs and the two shows."""

    def __init__(self, target: int, i_am_dealer: bool) -> None:
        self.target = target
        self.dealer = i_am_dealer
        self.memo: dict[tuple[int, int, int, int], float] = {}

    def value(self, need_me: int, need_opp: int, show_me: int, show_opp: int) -> float:
        key = (need_me, need_opp, show_me, show_opp)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = WIN * (2 * self._chance(need_me, need_opp, show_me, show_opp) - 1)
        return found

    def _chance(self, need_me: int, need_opp: int, show_me: int, show_opp: int) -> float:
        t = self.target
        mine, theirs = t - need_me, t - need_opp
        if self.dealer:  # the pone counts first, then my hand, then my crib
            if show_opp >= need_opp:
                return 0.0
            if show_me >= need_me:
                return 1.0
            mine, theirs = mine + show_me, theirs + show_opp
            return sum(q * win_chance(mine + c, theirs, False, t) for c, q in crib_odds())
        if show_me >= need_me:
            return 1.0
        mine, theirs = mine + show_me, theirs + show_opp
        if theirs >= t:
            return 0.0
        return sum(q * win_chance(mine, theirs + c, True, t) for c, q in crib_odds())
