"""A count a player claimed against what the cards are worth: the manual count of a game's show and
the counting trainer read the same comparison.

>>> from games.engine.cards import parse_card, parse_cards
>>> from games.engine.scoring import score_hand
>>> best = score_hand(parse_cards("5H 5C 5S JD"), parse_card("5D"))
>>> check = check_count(28, best.total, best.by_kind)
>>> check.right, check.missed, check.over, check.missed_kinds
(False, 1, 0, ('nobs',))
>>> check_count(12, 8).over
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from games.engine.scoring import SHOW_KINDS


@dataclass(frozen=True)
class CountCheck:
    """``claimed`` against ``worth``; ``by_kind`` the points per show kind (fifteen, pair, run, flush,
    nobs), when known."""

    claimed: int
    worth: int
    by_kind: Mapping[str, int] = field(default_factory=dict)

    @property
    def right(self) -> bool:
        return self.claimed == self.worth

    @property
    def missed(self) -> int:
        """Points the claim left on the table (0 for a right count or an over-count)."""
        return max(0, self.worth - self.claimed)

    @property
    def over(self) -> int:
        """Points claimed beyond what the cards are worth."""
        return max(0, self.claimed - self.worth)

    @property
    def missed_kinds(self) -> tuple[str, ...]:
        """The kinds whose points alone are just what was missed: the likely place to look again.
        A total says no more than that; nothing when no kind matches, or for a right count.

        >>> check_count(21, 23, {"fifteen": 8, "pair": 2, "run": 12, "flush": 0, "nobs": 1}).missed_kinds
        ('pair',)
        """
        if not self.missed:
            return ()
        return tuple(kind for kind in SHOW_KINDS if self.by_kind.get(kind, 0) == self.missed)


def check_count(claimed: int, worth: int, by_kind: Mapping[str, int] | None = None) -> CountCheck:
    """Compare a claim with a hand's true total (``ShowScore.total``; ``by_kind`` its ``by_kind``)."""
    if claimed < 0 or worth < 0:
        raise ValueError("a count is never below 0")
    return CountCheck(int(claimed), int(worth), dict(by_kind or {}))
