"""What a change to the expert's settings is worth: paired deals, measured in the chance to win.

    python -m bench.ai_variant --set play_search.NODE_BUDGET=6000 --set play_search.MAX_SAMPLES=96
    python -m bench.ai_variant --set sampling.PASSED_UP=3.0 --against expert --deals 4000 --seed 5

Deal ``i`` of a seed is dealt at scores drawn from ``--scores`` (seat 0 deals) and played to the end
of its show twice from each seat: once by the expert with the settings changed, once by the expert
as it is, the other seat ``--against`` both times (same cards, same random choices). A deal is
worth the seat's chance to win once it is over: 1 or 0 if the game ended in it, else the
win-probability table at the new scores with the other seat to deal. The figure is the changed
expert's chance minus the expert's, a deal's two seats averaged, with a 95% interval, and the share
of deals played differently. ``--set module.NAME=value`` changes a setting of
``games.engine.players.<module>`` (a Python literal) on the changed seat's turns only; with no
``--set`` the two are the same player and the difference is exactly 0 (a check of the harness).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import random
import time

from bench.paired_deals import differences, shuffled, summary
from games.engine.actions import NextDeal
from games.engine.game import apply
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.engine.view import view
from games.engine.winprob import win_chance

DEALING = ("discard", "starter", "play", "show")


def settings(pairs: list[str]) -> list[tuple[object, str, object]]:
    """``module.NAME=value`` strings as (module, name, value), each name checked to exist."""
    out = []
    for pair in pairs:
        target, _, literal = pair.partition("=")
        module_name, _, name = target.rpartition(".")
        module = importlib.import_module(f"games.engine.players.{module_name}")
        if not hasattr(module, name):
            raise SystemExit(f"{module.__name__} has no setting {name}")
        out.append((module, name, ast.literal_eval(literal)))
    return out


def chance(seed: int, i: int, seat: int, changed: list, against: str, scores: tuple[int, int]) -> float:
    """``seat``'s chance to win once deal ``i`` is over, the expert in that seat with ``changed``."""
    deck, rng = shuffled(seed, i)
    at = (rng.randint(*scores), rng.randint(*scores))
    state = start_deal(HouseRules(), dealer=0, hands=(deck[:6], deck[6:12]), starter=deck[12], scores=at)
    play_rng = random.Random(f"{seed}:{i}:play")
    kept = [(module, name, getattr(module, name)) for module, name, _ in changed]
    try:
        while state.phase in DEALING:
            turn = state.to_act[0]
            v = view(state, turn)
            if isinstance(v.legal_actions[0], NextDeal):
                break
            for (module, name, new), (_, _, old) in zip(changed, kept, strict=True):
                setattr(module, name, new if turn == seat else old)
            state, _ = apply(state, choose_action(v, "expert" if turn == seat else against, play_rng))
    finally:
        for module, name, old in kept:
            setattr(module, name, old)
    if state.phase not in DEALING:
        return 1.0 if state.results[-1].winner == seat else 0.0
    return win_chance(state.scores[seat], state.scores[1 - seat], i_deal=seat == 1)


def _chunk(args) -> list[float]:
    seed, start, stop, pairs, against, scores = args
    changed = settings(pairs)
    return [sum(chance(seed, i, seat, changed, against, scores) - chance(seed, i, seat, [], against, scores)
                for seat in (0, 1)) / 2
            for i in range(start, stop)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    parser.add_argument("--against", default="standard", choices=("easy", "standard", "expert", "reference"))
    parser.add_argument("--scores", default="0-115", help="each side's score is drawn from this range")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    settings(args.set)  # a wrong name stops here, not in a worker
    low, _, high = args.scores.partition("-")
    scores = (int(low), int(high))
    begun = time.perf_counter()
    chunks = [(args.seed, i, min(args.deals, i + 50), args.set, args.against, scores)
              for i in range(0, args.deals, 50)]
    diffs = differences(_chunk, chunks, args.processes)
    mean, half, changed = summary(diffs)
    what = ", ".join(args.set) or "the expert itself"
    print(f"{what} against {args.against}, scores {args.scores}: {100 * mean:+.3f} percentage points "
          f"of chance to win a deal (95% CI {100 * (mean - half):+.3f} to {100 * (mean + half):+.3f}) "
          f"over {len(diffs):,} deals, seed {args.seed}; {changed:.0%} of deals played differently")
    print(f"seconds: {time.perf_counter() - begun:.1f}")


if __name__ == "__main__":
    main()
