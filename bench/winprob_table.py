"""Regenerate the engine's win-probability tables (``games/engine/data/winprob_<target>.txt``).

    python -m bench.winprob_table                     # 12,000 deals, two processes, both targets
    python -m bench.winprob_table --deals 2000 --out /tmp/wp   # a quick look, written elsewhere

Deals are played expert against expert through the engine's ``apply``, each computer seeing only
its ``view``, at scores drawn from 0 to 60 for each side so that no end-game choice shapes them (a
deal's points are the same early and late when nobody plays for the finish). Deal ``i`` is seeded
from ``(seed, i)``, so a table is the same whatever the number of processes. ``games.engine.winprob``
says how the deals become the tables; this prints the time each step took and the files' sizes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from pathlib import Path

from games.engine.game import apply, new_game
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.testing import with_scores
from games.engine.view import view
from games.engine.winprob import DATA, TARGETS, DealSample, deal_odds, solve, write_table

PEGGING = frozenset({"his_heels", "fifteen", "thirty_one", "pair", "run", "go", "last_card"})


def sample_deal(seed: int, index: int) -> DealSample:
    tag = f"{seed}:winprob:{index}"
    rng = random.Random(tag)
    state = new_game(HouseRules(), tag.encode())
    while state.phase == "cut":
        for seat in state.to_act:
            state, _ = apply(state, choose_action(view(state, seat), "easy", rng))
    state = with_scores(state, (rng.randrange(61), rng.randrange(61)))
    dealer, deal_no = state.dealer, state.deal_no
    pegs, shows = [], {"pone": 0, "dealer": 0, "crib": 0}
    while state.deal_no == deal_no:
        for seat in state.to_act:
            state, events = apply(state, choose_action(view(state, seat), "expert", rng))
            for e in events:
                if e.kind in PEGGING and e.points:
                    pegs.append((e.seat == dealer, e.points))
                elif e.kind == "crib":
                    shows["crib"] += e.points
                elif e.kind == "hand":
                    shows["dealer" if e.seat == dealer else "pone"] += e.points
    return DealSample(tuple(pegs), shows["pone"], shows["dealer"], shows["crib"])


def _chunk(args) -> list[DealSample]:
    seed, indexes = args
    return [sample_deal(seed, i) for i in indexes]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=12_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    step = max(1, args.deals // (8 * args.processes))
    chunks = [(args.seed, range(i, min(args.deals, i + step))) for i in range(0, args.deals, step)]
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        samples = [s for part in pool.map(_chunk, chunks) for s in part]
    played = time.perf_counter() - start
    odds = deal_odds(samples)
    counted = time.perf_counter() - start - played
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "deal_odds.json").write_text(json.dumps(odds.to_dict(), separators=(",", ":")))
    print(f"{args.deals} deals played in {played:.1f} s, counted in {counted:.1f} s "
          f"(pegging at most {odds.max_peg} a side)")
    for target in TARGETS:
        t = time.perf_counter()
        table = solve(odds, target)
        path = args.out / f"winprob_{target}.txt"
        write_table(table, path)
        size = path.stat().st_size
        print(f"to {target}: solved in {time.perf_counter() - t:.1f} s, {path} {size:,} bytes; "
              f"first dealer {table[0][0]:.3f}")


if __name__ == "__main__":
    main()
