"""The standings of a qualifying: its table, best first, with the ACC's order and tie-breaks."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass


@dataclass
class Standing:
    """One player's line in the standings. ``order`` breaks a complete tie (a seed, say)."""

    player: Hashable
    order: int = 0
    played: int = 0
    match_wins: int = 0
    match_losses: int = 0
    games_won: int = 0
    games_lost: int = 0
    points: int = 0
    spread: int = 0
    withdrawn: bool = False
    rank: int = 0

    def sort_key(self) -> tuple:
        return (self.withdrawn, -self.points, -self.match_wins, -self.games_won, -self.spread, self.order)

    def tie_key(self) -> tuple:
        return (self.withdrawn, self.points, self.match_wins, self.games_won, self.spread)


@dataclass(frozen=True)
class MatchResult:
    """A decided match between ``a`` and ``b`` (``spread`` from ``a``'s side)."""

    a: Hashable
    b: Hashable
    winner: Hashable | None
    games_a: int = 0
    games_b: int = 0
    points_a: int = 0
    points_b: int = 0
    spread: int = 0


def standings(
    players: Iterable[Hashable],
    results: Iterable[MatchResult],
    *,
    order: dict | None = None,
    withdrawn: Iterable[Hashable] = (),
) -> list[Standing]:
    """The table, best first: qualifying points, then match wins, then games won, then point
    spread; players still level share a rank (and are listed by ``order``). Withdrawn players go
    to the bottom.

    >>> table = standings(["a", "b"], [MatchResult("a", "b", "a", 1, 0, 2, 0, 30)])
    >>> [(s.player, s.points, s.spread, s.rank) for s in table]
    [('a', 2, 30, 1), ('b', 0, -30, 2)]
    """
    order = order or {}
    gone = set(withdrawn)
    rows = {p: Standing(p, order=order.get(p, i), withdrawn=p in gone) for i, p in enumerate(players)}
    for r in results:
        for me, games_me, games_them, points, spread in (
            (r.a, r.games_a, r.games_b, r.points_a, r.spread),
            (r.b, r.games_b, r.games_a, r.points_b, -r.spread),
        ):
            row = rows.get(me)
            if row is None:
                continue
            row.played += 1
            if r.winner == me:
                row.match_wins += 1
            elif r.winner is not None:
                row.match_losses += 1
            row.games_won += games_me
            row.games_lost += games_them
            row.points += points
            row.spread += spread
    table = sorted(rows.values(), key=Standing.sort_key)
    for i, row in enumerate(table):
        if i and table[i - 1].tie_key() == row.tie_key():
            row.rank = table[i - 1].rank
        else:
            row.rank = i + 1
    return table
