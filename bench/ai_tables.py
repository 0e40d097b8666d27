"""Computer players at tables of three and four: does the expert beat the standard player there?

    python -m bench.ai_tables --players 3 --games 1000   # one expert against two standard players
    python -m bench.ai_tables --players 4 --games 600    # expert partners against standard partners

At those tables the expert weighs the card it gives the crib (``players/crib_card.py``) and pegs
by lookahead (``players/table_play_search.py``); the standard player keeps its best hand and pegs
greedily. With three players
the expert sits in each seat in turn relative to the first dealer, so a fair share is 1/3; with
four the expert partnership sits at the first dealer's side in half the games, a fair share 1/2.
Games are seeded from ``(seed, players, index)`` and replay exactly; figures come with Wilson 95%
intervals (``bench.ai.wilson``).

    python -m bench.ai_tables --players 3 --games 300 --against reference --duplicate

``--duplicate`` plays every game twice on the same cards (the decks are the game's, whatever is
played): once with the expert in its seat, once with an ``--against`` player there as well. The
seat's win in the second game is what the cards gave it, so the pair's difference is what the
expert's own play made of them; its mean comes with a normal 95% interval over the pairs.
``reference`` is the expert as it was before it searched the play at these tables (the same
lay-away, greedy pegging), so against it the difference is the search's worth; the play alone is
measured, with less noise, by ``bench.ai_table_pegging``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys

from bench.ai import wilson
from games.engine.game import apply, new_game
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.view import view


def play_table(players: int, seed: int, index: int, against: str = "standard",
               seat_level: str = "expert") -> bool:
    """One game to 121; True when the seat under test (or its partnership) won. That seat plays
    ``seat_level`` (the expert), its partner too at four; the others ``against``."""
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
            level = seat_level if seat in experts else against
            state, _ = apply(state, choose_action(view(state, seat), level, rng))
    sides = 2 if players == 4 else players
    return state.results[-1].winner == expert % sides


def _chunk(args) -> list[bool]:
    players, seed, indexes, against = args
    return [play_table(players, seed, i, against) for i in indexes]


def _pairs(args) -> list[tuple[bool, bool]]:
    players, seed, indexes, against = args
    return [(play_table(players, seed, i, against), play_table(players, seed, i, against, against))
            for i in indexes]


def duplicate_summary(pairs: list[tuple[bool, bool]]) -> dict:
    """The expert's wins, the same seat's wins with the other player in it, and their difference
    over the pairs with a normal 95% interval."""
    n = len(pairs)
    diffs = [a - b for a, b in pairs]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 1.0
    lo, hi = wilson(sum(a for a, _ in pairs), n)
    return {"pairs": n, "expert_rate": round(sum(a for a, _ in pairs) / n, 4),
            "expert_ci95": [round(lo, 4), round(hi, 4)],
            "same_seat_rate": round(sum(b for _, b in pairs) / n, 4), "difference": round(mean, 4),
            "difference_ci95": [round(mean - half, 4), round(mean + half, 4)],
            "pair_counts": {"won_only_expert": diffs.count(1), "same": diffs.count(0),
                            "won_only_other": diffs.count(-1)}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(3, 4), default=3)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--against", choices=("standard", "reference"), default="standard")
    parser.add_argument("--duplicate", action="store_true", help="each game twice, see the module's doc")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    step = max(1, args.games // (8 * args.processes))
    chunks = [(args.players, args.seed, range(i, min(args.games, i + step)), args.against)
              for i in range(0, args.games, step)]
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        if args.duplicate:
            pairs = [p for part in pool.map(_pairs, chunks) for p in part]
            result = {"players": args.players, "against": args.against, **duplicate_summary(pairs)}
            lo, hi = result["difference_ci95"]
            print(json.dumps(result) if args.json else
                  f"{args.players} players, {result['pairs']} pairs against {args.against}: the expert's "
                  f"seat won {result['expert_rate']:.1%}, the same seat {result['same_seat_rate']:.1%} "
                  f"without it; difference {result['difference']:+.1%} (95% CI {lo:+.1%} to {hi:+.1%})")
            return 0
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
