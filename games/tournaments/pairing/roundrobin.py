"""Round robin by the circle method: everyone meets everyone once, a bye for an odd count.

>>> round_robin(["a", "b", "c", "d"])[0]
[('a', 'd'), ('c', 'b')]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


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
