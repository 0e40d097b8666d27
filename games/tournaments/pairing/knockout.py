"""Seeded single-elimination brackets: byes to the top seeds, up to the next power of two.

>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_round(["s1", "s2", "s3"])
[('s1', None), ('s2', 's3')]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


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
