"""What a kept four pegs: the average points it makes and gives away in the play, by role.

Measured by ``python -m bench.kept_four_pegging`` (every multiset of four ranks, dealt against what the
other side would keep, played out by the engine's pegging) and kept in ``data/kept_four_pegging.txt``, one
line per four: the ranks, then dealer made and given, then pone made and given, in hundredths.

>>> made, given = pegging(parse_cards("3H 3C 4D 4S"), is_dealer=False)
>>> made > given  # low pairs peg well, even for the pone
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from games.engine.cards import parse_cards  # noqa: F401 - used by the doctest

DATA_FILE = Path(__file__).parents[1] / "data" / "kept_four_pegging.txt"


def write_table(rows, path: Path) -> None:
    """``rows``: (four ranks, is_dealer, made, given) for each four and role."""
    by_four: dict[tuple[int, ...], dict[bool, tuple[float, float]]] = {}
    for four, role, made, given in rows:
        by_four.setdefault(tuple(four), {})[role] = (made, given)
    with path.open("w") as out:
        for four, roles in sorted(by_four.items()):
            figures = (*roles[True], *roles[False])
            out.write(" ".join(map(str, four)) + " " + " ".join(str(round(100 * v)) for v in figures) + "\n")


@cache
def _table() -> dict[tuple[int, ...], tuple[float, float, float, float]]:
    table = {}
    with DATA_FILE.open() as rows:
        for row in rows:
            v = [int(x) for x in row.split()]
            table[tuple(v[:4])] = tuple(x / 100 for x in v[4:])
    return table


@cache
def averages() -> dict[bool, tuple[float, float]]:
    """Made and given over every four, each weighted by how often four random cards have its ranks."""
    from collections import Counter
    from math import comb

    sums = {True: [0.0, 0.0], False: [0.0, 0.0]}
    total = 0
    for four, (dm, dg, pm, pg) in _table().items():
        w = 1
        for n in Counter(four).values():
            w *= comb(4, n)
        total += w
        for role, (m, g) in ((True, (dm, dg)), (False, (pm, pg))):
            sums[role][0] += w * m
            sums[role][1] += w * g
    return {role: (m / total, g / total) for role, (m, g) in sums.items()}


def pegging(kept, is_dealer: bool) -> tuple[float, float]:
    """The average points ``kept`` makes and gives away in the play, as dealer or pone."""
    dm, dg, pm, pg = _table()[tuple(sorted(c.rank for c in kept))]
    return (dm, dg) if is_dealer else (pm, pg)
