"""Qualifying pairing and standings speed: ``python -m bench.pairing [--json] [--repeats N]``.

For each field (64 entrants over 9 rounds, 256 over 9 and over 12, by default) a whole qualifying
is played with seeded random results (ACC points: 2 a win, 3 a skunk, 4 a double skunk; random
spreads), every round paired by standing as a director would. Then, on that data, each figure is
the median wall time of ``--repeats`` runs, in milliseconds:

- ``pair_last``: pairing the last round by standing (the most opponents already met), and
  ``pair_random_last`` the same at random; ``pair_worst`` the slowest round by standing;
- ``standings``: the table from every result (ACC order), and ``standings_tiebreaks`` with
  head-to-head and a cut added to the criteria;
- ``qualification``: who is sure to qualify, with the last round paired but unplayed;
- baselines from the same run: ``sorted`` (the standings rows sorted by their ACC key, the least a
  table costs) and ``round_robin`` (the whole circle-method schedule for the field).

Nothing here asserts a time; the figures are for reading (they should stay well under a second).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable

from games.tournaments.pairing import (
    ACC_ORDER,
    MatchResult,
    Scoring,
    Standing,
    pair_round,
    qualification,
    qualifier_count,
    round_robin,
    standings,
)

FIELDS = ((64, 9), (256, 9), (256, 12))


def _median_ms(func: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _result(a: int, b: int, rng: random.Random, scoring: Scoring) -> MatchResult:
    skunk = rng.choices((0, 1, 2), weights=(80, 17, 3))[0]
    loser_score = {0: rng.randint(91, 120), 1: rng.randint(61, 90), 2: rng.randint(30, 60)}[skunk]
    spread = 121 - loser_score
    points = scoring.game_points(skunk)
    if rng.random() < 0.5:
        return MatchResult(a, b, a, 1, 0, points, 0, spread)
    return MatchResult(a, b, b, 0, 1, 0, points, -spread)


def qualifying(n: int, rounds: int, seed: int) -> dict:
    """A whole qualifying, every round paired by standing, with what each round was paired from."""
    rng = random.Random(seed)
    scoring = Scoring(double_skunk=4)
    people = list(range(n))
    history: list[tuple] = []
    results: list[MatchResult] = []
    byes: list[int] = []
    before: list[dict] = []  # per round: the history and standing it was paired from
    for _ in range(rounds):
        table = standings(people, results, byes=byes)
        order = [row.player for row in table]
        pairs = pair_round(people, history, standing=order)
        before.append({"history": list(history), "order": order, "table": table, "pairs": pairs})
        history += pairs
        for a, b in pairs:
            if b is None:
                byes.append(a)
            else:
                results.append(_result(a, b, rng, scoring))
    cut = {p: rng.randint(1, 13) for p in people}
    return {"people": people, "results": results, "byes": byes, "cut": cut, "before": before}


def measure(n: int, rounds: int, repeats: int, seed: int) -> dict:
    q = qualifying(n, rounds, seed)
    people, results, byes, last = q["people"], q["results"], q["byes"], q["before"][-1]
    rows: list[Standing] = standings(people, results, byes=byes)
    tiebreaks = (*ACC_ORDER, "head_to_head", "cut")
    figures = {
        "entrants": n,
        "rounds": rounds,
        "pair_last": _median_ms(lambda: pair_round(people, last["history"], standing=last["order"]), repeats),
        "pair_random_last": _median_ms(
            lambda: pair_round(people, last["history"], method="random", rng=random.Random(seed)), repeats
        ),
        "pair_worst": max(
            _median_ms(lambda b=b: pair_round(people, b["history"], standing=b["order"]), repeats)
            for b in q["before"]
        ),
        "standings": _median_ms(lambda: standings(people, results, byes=byes), repeats),
        "standings_tiebreaks": _median_ms(
            lambda: standings(people, results, byes=byes, criteria=tiebreaks, cut=q["cut"]), repeats
        ),
        "qualification": _median_ms(
            lambda: qualification(last["table"], qualifier_count(n), remaining=last["pairs"], max_points=4),
            repeats,
        ),
        "sorted": _median_ms(lambda: sorted(rows, key=Standing.sort_key), repeats),
        "round_robin": _median_ms(lambda: round_robin(people), repeats),
    }
    return {key: round(value, 3) if isinstance(value, float) else value for key, value in figures.items()}


def run(repeats: int, seed: int, fields: tuple[tuple[int, int], ...] = FIELDS) -> dict:
    return {
        "python": platform.python_version(),
        "repeats": repeats,
        "seed": seed,
        "fields": [measure(n, rounds, repeats, seed) for n, rounds in fields],
    }


def _fields(text: str) -> tuple[tuple[int, int], ...]:
    pairs = []
    for part in text.split(","):
        n, _, rounds = part.partition("x")
        pairs.append((int(n), int(rounds)))
    return tuple(pairs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pairing", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeats", type=int, default=9, help="runs per figure, the median kept (default 9)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fields",
        type=_fields,
        default=FIELDS,
        help="entrants x rounds, comma separated (default 64x9,256x9,256x12)",
    )
    args = parser.parse_args(argv)
    result = run(args.repeats, args.seed, args.fields)
    if args.json:
        print(json.dumps(result))
        return
    columns = [
        ("pair_last", "pair last"),
        ("pair_random_last", "random last"),
        ("pair_worst", "worst round"),
        ("standings", "standings"),
        ("standings_tiebreaks", "+h2h, cut"),
        ("qualification", "qualified?"),
        ("sorted", "sorted()"),
        ("round_robin", "round_robin"),
    ]
    print(f"median of {args.repeats} runs, ms (Python {result['python']}); baselines: sorted(), round_robin")
    print(f"{'field':>10} " + " ".join(f"{title:>12}" for _, title in columns))
    for f in result["fields"]:
        label = f"{f['entrants']} x {f['rounds']}"
        print(f"{label:>10} " + " ".join(f"{f[key]:>12.3f}" for key, _ in columns))


if __name__ == "__main__":
    main()
