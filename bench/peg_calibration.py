"""How the pegging table's shifts show in the play as the computers play it: the expert's
``discard_chances.PEG_WEIGHTS``.

    python -m bench.peg_calibration                      # 16,000 deals, seed 2: about 3 min on two cores
    python -m bench.peg_calibration --deals 16000 --seed 3

The table (``data/kept_four_pegging.txt``, ``bench.kept_four_pegging``) is measured with greedy play
on both sides; the expert and the reference play by search and lay away with the crib in mind, so a
four's shift need not show at face value. Each deal is dealt at 0-0 (dealer seat 0): the expert lays
away for both seats, the reference plays the play for both, and the points each side pegs (his heels
and the shows left out) are regressed on the four shifts the table gives: the dealer's four's made
and given and the pone's four's made and given, each beside its role's average four. A calibrated
table would read 1 on the dealer's points from the dealer's made and the pone's given, 1 on the
pone's points from the pone's made and the dealer's given, and 0 elsewhere. Printed: each
coefficient with its 95% interval, and the weights for ``PEG_WEIGHTS`` they make.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time

from bench.paired_deals import laid_away, pegged
from games.engine.players import choose_action
from games.engine.players.kept_four_pegging import averages, pegging
from games.engine.view import view

SHIFTS = ("dealer made", "dealer given", "pone made", "pone given")


def one_deal(seed: int, i: int) -> tuple[int, int, tuple[float, ...]]:
    """(dealer's pegging, pone's pegging, the four shifts) of deal ``i``."""
    state, rng = laid_away(seed, i, "expert")
    kept = state.hands
    points = pegged(state, lambda state, turn: choose_action(view(state, turn), "reference", rng))
    avg = averages()
    dm, dg = pegging(kept[0], True)
    pm, pg = pegging(kept[1], False)
    shifts = (dm - avg[True][0], dg - avg[True][1], pm - avg[False][0], pg - avg[False][1])
    return points[0], points[1], shifts


def _chunk(args) -> list[tuple[int, int, tuple[float, ...]]]:
    seed, start, stop = args
    return [one_deal(seed, i) for i in range(start, stop)]


def regress(ys: list[float], xs: list[tuple[float, ...]]) -> tuple[list[float], list[float]]:
    """Least squares of ``ys`` on an intercept and ``xs``: (coefficients, standard errors)."""
    k = len(xs[0]) + 1
    gram = [[0.0] * k for _ in range(k)]
    moments = [0.0] * k
    for y, x in zip(ys, xs, strict=True):
        row = (1.0, *x)
        for a in range(k):
            moments[a] += row[a] * y
            for b in range(k):
                gram[a][b] += row[a] * row[b]
    inverse = _invert(gram)
    beta = [sum(inverse[a][b] * moments[b] for b in range(k)) for a in range(k)]
    residual = sum((y - beta[0] - sum(b * v for b, v in zip(beta[1:], x, strict=True))) ** 2
                   for y, x in zip(ys, xs, strict=True))
    variance = residual / (len(ys) - k)
    return beta, [math.sqrt(variance * inverse[a][a]) for a in range(k)]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting (five by five here: no numeric library needed)."""
    k = len(matrix)
    rows = [list(r) + [1.0 if i == j else 0.0 for j in range(k)] for i, r in enumerate(matrix)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(rows[r][c]))
        rows[c], rows[pivot] = rows[pivot], rows[c]
        lead = rows[c][c]
        rows[c] = [v / lead for v in rows[c]]
        for r in range(k):
            if r != c and rows[r][c]:
                f = rows[r][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    return [r[k:] for r in rows]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=16000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    chunks = [(args.seed, i, min(args.deals, i + 100)) for i in range(0, args.deals, 100)]
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            rows = [r for part in pool.map(_chunk, chunks) for r in part]
    else:
        rows = [r for c in chunks for r in _chunk(c)]
    xs = [r[2] for r in rows]
    fits = {}
    for label, ys in (("dealer's pegging", [r[0] for r in rows]), ("pone's pegging", [r[1] for r in rows])):
        beta, se = regress(ys, xs)
        fits[label] = beta[1:]
        terms = ", ".join(f"{name} {b:+.2f} ({b - 1.96 * s:+.2f} to {b + 1.96 * s:+.2f})"
                          for name, b, s in zip(SHIFTS, beta[1:], se[1:], strict=True))
        print(f"{label}: mean {statistics.fmean(ys):.3f}; {terms}")
    dealer, pone = fits["dealer's pegging"], fits["pone's pegging"]
    weights = {
        True: ((dealer[0], dealer[1]), (pone[0], pone[1])),  # the dealer's four: mine, theirs
        False: ((pone[2], pone[3]), (dealer[2], dealer[3])),  # the pone's four: mine, theirs
    }
    shown = {role: tuple(tuple(round(v, 2) for v in row) for row in rows_) for role, rows_ in weights.items()}
    print(f"PEG_WEIGHTS from these {args.deals:,} deals (seed {args.seed}): {shown}")
    print(f"seconds: {time.perf_counter() - start:.1f}")


if __name__ == "__main__":
    main()
