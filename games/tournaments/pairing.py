"""Pairings and standings for tournaments: pure Python, no Django, no clock, no I/O.

Round robin by the circle method (a bye for an odd count, each player sits out once), seeded
single-elimination brackets (byes to the top seeds, up to the next power of two), the ACC's
qualifying points and the standings order with its tie-breaks.

>>> round_robin(["a", "b", "c", "d"])[0]
[('a', 'd'), ('c', 'b')]
>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_round(["s1", "s2", "s3"])
[('s1', None), ('s2', 's3')]
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


# --- round robin ----------------------------------------------------------------------------------


def round_robin(players: Sequence[P]) -> list[list[tuple[P, P | None]]]:
    """Every round of a single round robin: a list of rounds, each a list of ``(a, b)`` pairs.

    The circle method: the first player stays put and the others rotate one place a round. With an
    odd count a bye (``None``, always second in its pair) joins the circle, so each player sits out
    exactly once, in turn from the last listed. Everyone meets everyone else exactly once, over
    ``n - 1`` rounds (``n`` rounds for an odd count).

    >>> [len(r) for r in round_robin(list("abcde"))]
    [3, 3, 3, 3, 3]
    >>> [next(a for a, b in r if b is None) for r in round_robin(list("abcde"))]
    ['e', 'd', 'c', 'b', 'a']
    >>> round_robin(["x"])
    []
    """
    people: list[P | None] = list(players)
    if len(set(people)) != len(people):
        raise ValueError("a player is listed twice")
    if len(people) < 2:
        return []
    if len(people) % 2:
        people.insert(0, None)  # the bye holds the fixed place: the player opposite it rotates
    n = len(people)
    rounds: list[list[tuple[P, P | None]]] = []
    circle = people[:]
    for r in range(n - 1):
        pairs: list[tuple[P, P | None]] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None:
                a, b = b, None
            elif b is not None and (r + i) % 2:
                a, b = b, a  # alternate who is listed first, so the first seat is spread around
            pairs.append((a, b))  # type: ignore[arg-type]
        # The bye pair first, then the real matches in table order.
        pairs.sort(key=lambda p: p[1] is not None)
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


# --- single elimination ---------------------------------------------------------------------------


def next_power_of_two(n: int) -> int:
    """The smallest power of two at least ``n``: the size of a bracket for ``n`` players.

    >>> [next_power_of_two(n) for n in (1, 2, 3, 4, 5, 8, 9)]
    [1, 2, 4, 4, 8, 8, 16]
    """
    if n < 1:
        raise ValueError("need at least one player")
    return 1 << (n - 1).bit_length()


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of ``size`` (a power of two).

    Adjacent pairs meet in the first round; seed 1 and seed 2 sit in different halves, seeds 1-4
    in different quarters, and each first-round pair's seeds add up to ``size + 1``.

    >>> bracket_order(4)
    [1, 4, 2, 3]
    """
    if size < 1 or size & (size - 1):
        raise ValueError("the bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round(seeded: Sequence[P]) -> list[tuple[P | None, P | None]]:
    """The first-round pairs of a bracket for players listed best seed first.

    The bracket is the next power of two; the missing places are byes (``None``, always second),
    and they fall to the top seeds, so after the first round exactly a power of two remain.

    >>> first_round(["s1", "s2", "s3", "s4", "s5"])[:2]
    [('s1', None), ('s4', 's5')]
    """
    if len(set(seeded)) != len(seeded):
        raise ValueError("a player is listed twice")
    if len(seeded) < 2:
        raise ValueError("a bracket needs two players")
    size = next_power_of_two(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]
    return [(slots[i], slots[i + 1]) for i in range(0, size, 2)]


def bracket_rounds(players: int) -> int:
    """Rounds of a bracket for ``players``: ``log2`` of the next power of two.

    >>> [bracket_rounds(n) for n in (2, 3, 4, 5, 16)]
    [1, 2, 2, 3, 4]
    """
    return max(1, next_power_of_two(players).bit_length() - 1)


def feeds(round_no: int, slot: int) -> tuple[int, int, int]:
    """Where the winner of bracket match ``(round_no, slot)`` goes: ``(round, slot, side)`` with
    ``side`` 0 for the first place of that match, 1 for the second.

    >>> feeds(1, 0), feeds(1, 1), feeds(1, 2)
    ((2, 0, 0), (2, 0, 1), (2, 1, 0))
    """
    return round_no + 1, slot // 2, slot % 2


def round_name(round_no: int, rounds: int) -> str:
    """What a bracket round is called.

    >>> [round_name(r, 3) for r in (1, 2, 3)]
    ['Quarter-finals', 'Semi-finals', 'Final']
    """
    left = rounds - round_no
    if left == 0:
        return "Final"
    if left == 1:
        return "Semi-finals"
    if left == 2:
        return "Quarter-finals"
    return f"Round {round_no}"


# --- qualifying -----------------------------------------------------------------------------------


def qualifier_count(entrants: int, chosen: int | None = None) -> int:
    """How many go on to the playoff: ``chosen`` if set, else the top quarter rounded up; at least
    two (a final) and never more than the entrants.

    >>> qualifier_count(5), qualifier_count(16), qualifier_count(17), qualifier_count(5, 3)
    (2, 4, 5, 3)
    """
    wanted = chosen if chosen else math.ceil(entrants / 4)
    return max(2, min(wanted, entrants)) if entrants >= 2 else entrants


@dataclass(frozen=True)
class Scoring:
    """Qualifying points for a game won: ACC: 2, a skunk 3, a double skunk a setting (default 3).
    A loss scores 0. A triple skunk counts as a double."""

    win: int = 2
    skunk: int = 3
    double_skunk: int = 3

    def game_points(self, skunk: int) -> int:
        """Points for winning a game with skunk level ``skunk`` (0 none, 1, 2 double, 3 triple).

        >>> Scoring().game_points(0), Scoring().game_points(1), Scoring(double_skunk=4).game_points(3)
        (2, 3, 4)
        """
        if skunk <= 0:
            return self.win
        return self.skunk if skunk == 1 else self.double_skunk


def game_spread(target: int, loser_score: int) -> int:
    """The winner's point spread for one game (the loser gets the negative): the winner counts as
    having reached the target exactly, so going out with a 29 hand earns no extra spread.

    >>> game_spread(121, 100), game_spread(121, 0), game_spread(61, 50)
    (21, 121, 11)
    """
    return max(0, target - loser_score)


# --- standings ------------------------------------------------------------------------------------


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
