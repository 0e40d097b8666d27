"""Computer players at tables of three and four: does the expert beat the standard player there?

    python -m bench.ai_tables --players 3 --games 1000   # one expert against two standard players
    python -m bench.ai_tables --players 4 --games 600    # expert partners against standard partners

At those tables the expert differs from the standard player only in its lay-away (the card it
gives the crib is weighed as well, ``players/crib_card.py``); both peg greedily. With three players
the expert sits in each seat in turn relative to the first dealer, so a fair share is 1/3; with
four the expert partnership sits at the first dealer's side in half the games, a fair share 1/2.
Games are seeded from ``(seed, players, index)`` and replay exactly; figures come with Wilson 95%
intervals (``bench.ai.wilson``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys

from bench.ai import wilson
from games.engine.game import apply, new_game
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.view import view


def play_table(players: int, seed: int, index: int) -> bool:
    """One game to 121; True when the expert (or its partnership) won."""
    tag = f"{seed}:table{players}:{index}"
    rng = random.Random(tag)
    state = new_game(HouseRules(players=players), tag.encode())
    while state.phase == "cut":
        for seat in state.to_act:
            state, _ = apply(state, choose_action(view(state, seat), "easy", rng))
    expert = (state.dealer + index) % players
    experts = {expert, (expert + 2) % 4} if players == 4 else {expert}
    while state.phase not in ("game_over", "match_over"):
        for seat in state.to_act:
            if state.phase in ("game_over", "match_over"):
                break
            level = "expert" if seat in experts else "standard"
            state, _ = apply(state, choose_action(view(state, seat), level, rng))
    sides = 2 if players == 4 else players
    return state.results[-1].winner == expert % sides


def _chunk(args) -> list[bool]:
    players, seed, indexes = args
    return [play_table(players, seed, i) for i in indexes]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(3, 4), default=3)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    step = max(1, args.games // (8 * args.processes))
    chunks = [(args.players, args.seed, range(i, min(args.games, i + step)))
              for i in range(0, args.games, step)]
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        won = [w for part in pool.map(_chunk, chunks) for w in part]
    lo, hi = wilson(sum(won), len(won))
    fair = 1 / 2 if args.players == 4 else 1 / 3
    result = {"players": args.players, "games": len(won), "expert_rate": round(sum(won) / len(won), 4),
              "ci95": [round(lo, 4), round(hi, 4)], "fair_share": round(fair, 4)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.players} players, {len(won)} games: the expert side won {result['expert_rate']:.1%} "
              f"(95% CI {lo:.1%}–{hi:.1%}); a fair share is {fair:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
