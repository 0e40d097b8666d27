"""The play alone at tables of three and four: what the expert's lookahead pegs against greedy play.

    python -m bench.ai_table_pegging --players 3 --deals 1000

Each deal is dealt at random (seeded from ``(seed, players, index)``) and played twice: every seat
lays away as the ``reference`` level does (the expert's lay-away), then one seat (with its partner
at four) pegs as the expert and the others as the reference, which pegs greedily; the second time
that seat pegs as the reference too. The seat under test turns round the table with the index. A
deal's score is that seat's side's pegging points less the other sides' average, and the figure is
the mean over deals of the first play's score less the second's, with a normal 95% interval: the
points a deal's play gains by the search, with the cards' luck taken out.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys

from games.engine.cards import DECK
from games.engine.game import apply
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.engine.view import view

PEGGING = frozenset({"fifteen", "thirty_one", "pair", "run", "go", "last_card"})


def margin(players: int, seed: int, index: int, level: str) -> float:
    """One deal's pegging margin for the seat under test, which pegs as ``level``."""
    deal = random.Random(f"{seed}:pegging{players}:{index}")
    cards = deal.sample(DECK, 5 * players + 2)
    hands = [cards[5 * s: 5 * s + 5] for s in range(players)]
    state = start_deal(HouseRules(players=players), dealer=index % players, hands=hands, starter=cards[-1],
                       crib_card=cards[-2] if players == 3 else None)
    sides = 2 if players == 4 else players
    tested = (index // players) % players
    points = [0] * sides
    rng = random.Random(index)
    while state.phase in ("discard", "play"):
        for seat in state.to_act:
            if state.phase not in ("discard", "play"):
                break
            mine = seat % sides == tested % sides
            chosen = level if mine and state.phase == "play" else "reference"
            state, events = apply(state, choose_action(view(state, seat), chosen, rng))
            for e in events:
                if e.kind in PEGGING:
                    points[e.seat % sides] += e.points
    ours = points[tested % sides]
    return ours - (sum(points) - ours) / (sides - 1)


def _chunk(args) -> list[float]:
    players, seed, indexes = args
    return [margin(players, seed, i, "expert") - margin(players, seed, i, "reference") for i in indexes]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(3, 4), default=3)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    step = max(1, args.deals // (8 * args.processes))
    chunks = [(args.players, args.seed, range(i, min(args.deals, i + step)))
              for i in range(0, args.deals, step)]
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        diffs = [d for part in pool.map(_chunk, chunks) for d in part]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    result = {"players": args.players, "deals": len(diffs), "gain": round(mean, 3),
              "ci95": [round(mean - half, 3), round(mean + half, 3)]}
    print(json.dumps(result) if args.json else
          f"{args.players} players, {len(diffs)} deals: the search gains {mean:+.3f} points of pegging "
          f"margin a deal (95% CI {mean - half:+.3f} to {mean + half:+.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
