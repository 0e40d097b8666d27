"""Computer players: strength (seeded computer-vs-computer games) and decision speed.

    python -m bench.ai --games 2000          # both parts, a table
    python -m bench.ai --games 200 --json    # one JSON object
    python -m bench.ai --speed-only --deals 1000
    python -m bench.ai --strength-only --games 500 --processes 2
    python -m bench.ai --fit-throw-model 40000   # re-derive players/throw_model.py's table
    python -m bench.ai --duplicate --pairings expert:reference --games 6000   # seats swapped

``reference`` is the expert before it played by winning chances (``players.choose.REFERENCE``),
kept as a yardstick here and offered to no player.

Strength: full games through the engine's ``apply``, each computer seeing only ``view``; game ``i``
of a pairing uses the secret and ``random.Random`` seeded from ``(seed, pairing, i)``, so every
game replays exactly and the split over processes changes nothing. Who deals first alternates:
after the cut, the first-named level takes the dealing seat in even games and the other seat in
odd ones. Win rates come with Wilson 95% intervals. ``--duplicate`` plays each deal sequence
twice instead, the seats swapped, and breaks out the games that reach the end with both sides
over 90 (``bench.ai_duplicate``).

Speed: over ``--deals`` random deals, each started at random scores (uniform 0..120 for each
seat, so deals near the end of a game, where the expert searches the whole play, come in their
natural share), the time of one discard decision (seat ``deal % 2``, so dealer and pone
alternate) and of every pegging decision with a real choice (two or more ranks that fit), for the
expert, with the standard player timed on the very same views as the same-run baseline; the
expert's pegging is also split into ``_early`` and ``_endgame`` deals. The deal is played on with
the expert's choices. Figures are wall-clock ms, with the CPU time beside them (other load on the
machine shows as the gap).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass

from bench.ai_duplicate import duplicate
from games.engine.actions import Discard, Play
from games.engine.cards import DECK
from games.engine.game import apply, new_game
from games.engine.players import choose_action
from games.engine.players.discard import discard_table
from games.engine.players.endgame import in_endgame
from games.engine.players.ranks import PAIRS
from games.engine.rules import HouseRules
from games.engine.testing import with_scores
from games.engine.view import view

PAIRINGS = (("expert", "easy"), ("expert", "standard"), ("standard", "easy"))


# --- strength ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameOutcome:
    first_won: bool  # the first-named level won
    first_dealt: bool
    deals: int


def play_game(first: str, second: str, seed: int, index: int, rules: HouseRules | None = None) -> GameOutcome:
    """One full game between two levels; deterministic in (seed, levels, index)."""
    tag = f"{seed}:{first}-{second}:{index}"
    rng = random.Random(tag)
    state = new_game(rules or HouseRules(), tag.encode())
    while state.phase == "cut":  # the cut does not depend on the level: random positions
        for seat in state.to_act:
            state, _ = apply(state, choose_action(view(state, seat), "easy", rng))
    first_seat = state.dealer if index % 2 == 0 else 1 - state.dealer
    levels = {first_seat: first, 1 - first_seat: second}
    deals = 0
    while state.phase not in ("game_over", "match_over"):
        deal_no = state.deal_no
        for seat in state.to_act:
            if state.phase in ("game_over", "match_over"):
                break
            state, _ = apply(state, choose_action(view(state, seat), levels[seat], rng))
        deals += state.deal_no != deal_no
    winner = state.results[-1].winner
    return GameOutcome(winner == first_seat, index % 2 == 0, deals + 1)


def _play_chunk(args) -> list[GameOutcome]:
    first, second, seed, indexes = args
    return [play_game(first, second, seed, i) for i in indexes]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def strength(games: int, seed: int, processes: int, pairings=PAIRINGS) -> dict:
    out = {}
    chunks = []
    for first, second in pairings:
        step = max(1, games // (8 * processes))
        for start in range(0, games, step):
            chunks.append((first, second, seed, range(start, min(games, start + step))))
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            results = pool.map(_play_chunk, chunks)
    else:
        results = [_play_chunk(c) for c in chunks]
    by_pairing: dict[tuple[str, str], list[GameOutcome]] = {p: [] for p in pairings}
    for (first, second, _, _), outcomes in zip(chunks, results, strict=True):
        by_pairing[(first, second)].extend(outcomes)
    for (first, second), outcomes in by_pairing.items():
        wins = sum(o.first_won for o in outcomes)
        lo, hi = wilson(wins, len(outcomes))
        out[f"{first}_vs_{second}"] = {
            "rate": round(wins / len(outcomes), 4), "ci95": [round(lo, 4), round(hi, 4)],
            "games": len(outcomes),
            "rate_dealing_first": round(
                sum(o.first_won for o in outcomes if o.first_dealt)
                / max(1, sum(o.first_dealt for o in outcomes)), 4),
            "deals_per_game": round(statistics.fmean(o.deals for o in outcomes), 1),
        }
    return out


# --- speed ------------------------------------------------------------------------------------


def _timed(level: str, v, rng: random.Random):
    """The action and its (wall, CPU) time in ms. CPU time shows what other load on the machine
    does to the wall figure."""
    start, cpu = time.perf_counter(), time.process_time()
    action = choose_action(v, level, rng)
    return action, ((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)


def _p95(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def _summary(samples: list[tuple[float, float]]) -> dict:
    wall = sorted(w for w, _ in samples)
    cpu = sorted(c for _, c in samples)
    return {"median": round(statistics.median(wall), 3), "p95": round(_p95(wall), 3),
            "p99": round(_p99(wall), 3), "cpu_p99": round(_p99(cpu), 3),
            "max": round(wall[-1], 3), "n": len(wall),
            "cpu_median": round(statistics.median(cpu), 3), "cpu_p95": round(_p95(cpu), 3)}


def speed(deals: int, seed: int) -> dict:
    kinds = ("expert_discard", "standard_discard", "expert_peg", "standard_peg", "expert_peg_early",
             "expert_peg_endgame")
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in kinds}
    for d in range(deals):
        tag = f"{seed}:speed:{d}"
        rng = random.Random(tag)
        state = new_game(HouseRules(), tag.encode())
        while state.phase == "cut":
            for seat in state.to_act:
                state, _ = apply(state, choose_action(view(state, seat), "easy", rng))
        # Scores as they come in a game (uniform over the board), so near-the-end decisions, which
        # search the whole play instead of the current series, count in their natural share.
        scores = (rng.randrange(121), rng.randrange(121))
        state = with_scores(state, scores)
        late = "_endgame" if in_endgame(*scores, 121) else "_early"
        timed_seat = d % 2
        for seat in (0, 1):
            v = view(state, seat)
            action, ms = _timed("expert", v, rng)
            if seat == timed_seat:
                times["expert_discard"].append(ms)
                times["standard_discard"].append(_timed("standard", v, rng)[1])
            assert isinstance(action, Discard)
            state, _ = apply(state, action)
        while state.phase == "play":
            seat = state.turn
            v = view(state, seat)
            action, ms = _timed("expert", v, rng)
            if len({a.card.rank for a in v.legal_actions if isinstance(a, Play)}) >= 2:
                times["expert_peg"].append(ms)
                times["expert_peg" + late].append(ms)
                times["standard_peg"].append(_timed("standard", v, rng)[1])
            state, _ = apply(state, action)
    return {f"{k}_ms": _summary(v) for k, v in times.items()}


# --- the throw model --------------------------------------------------------------------------


def fit_throw_model(hands: int, seed: int) -> dict[str, list[float]]:
    """How often the expert (uniform crib model) lays away each pair of ranks, over how often a
    random pair of six cards has them, with add-2 smoothing: the table in ``throw_model.py``."""
    rng = random.Random(seed)
    out = {}
    for dealer in (True, False):
        counts: Counter = Counter()
        for _ in range(hands):
            laid = discard_table(rng.sample(DECK, 6), dealer, opponent_model="uniform")[0].laid_away
            counts[tuple(sorted(c.rank for c in laid))] += 1
        factors = []
        for a, b in PAIRS:
            expected = hands * (6 if a == b else 16) / 1326
            factors.append(round((counts[(a, b)] + 2) / (expected + 2), 3))
        out["opponent_deals" if dealer else "opponent_is_pone"] = factors
    return out


def pairings_of(result: dict) -> list[tuple[str, str]]:
    return [tuple(k.split("_vs_")) for k in result if "_vs_" in k]


# --- main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--deals", type=int, default=1000, help="deals for the speed part (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--strength-only", action="store_true")
    parser.add_argument("--pairings", default=",".join(f"{a}:{b}" for a, b in PAIRINGS),
                        help="comma-separated first:second level pairs (default: all three)")
    parser.add_argument("--fit-throw-model", type=int, metavar="HANDS", default=0)
    parser.add_argument("--duplicate", action="store_true",
                        help="each deal sequence twice, seats swapped (--games counts both games)")
    parser.add_argument("--seeds", type=int, default=1,
                        help="with --duplicate: --games for each of this many seeds from --seed, "
                             "reported together and seed by seed")
    args = parser.parse_args(argv)
    if args.fit_throw_model:
        print(json.dumps(fit_throw_model(args.fit_throw_model, 7)))
        return 0
    result: dict = {}
    started = time.perf_counter()
    if not args.strength_only:
        t = time.perf_counter()
        result.update(speed(args.deals, args.seed))
        result["speed_seconds"] = round(time.perf_counter() - t, 1)
    if not args.speed_only:
        t = time.perf_counter()
        pairings = tuple(tuple(p.split(":")) for p in args.pairings.split(","))
        if args.duplicate:
            for first, second in pairings:
                result[f"{first}_vs_{second}"] = duplicate(first, second, max(1, args.games // 2), args.seed,
                                                           args.processes, wilson, args.seeds)
        else:
            result.update(strength(args.games, args.seed, args.processes, pairings))
        result["strength_seconds"] = round(time.perf_counter() - t, 1)
        result["processes"] = args.processes
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["seed"] = args.seed
    if args.json:
        print(json.dumps(result))
        return 0
    for first, second in PAIRINGS + tuple(k for k in pairings_of(result) if k not in PAIRINGS):
        r = result.get(f"{first}_vs_{second}")
        if r:
            lo, hi = r["ci95"]
            if "pairs" in r:
                plo, phi = r["pairs_ci95"]
                elo, ehi = r["endgame_ci95"]
                print(f"{first:>9} vs {second:<9} {100 * r['rate']:5.1f}% wins  95% CI [{100 * lo:.1f}, "
                      f"{100 * hi:.1f}] (pairs [{100 * plo:.1f}, {100 * phi:.1f}], "
                      f"{100 * r['split_pairs']:.0f}% split), {r['wins']:,} of {r['games']:,} duplicate "
                      f"games; "
                      f"both over 90: {100 * r['endgame_rate']:.1f}% [{100 * elo:.1f}, {100 * ehi:.1f}] "
                      f"of {r['endgame_games']}")
                if len(r["rate_by_seed"]) > 1:
                    seeds = r["rate_by_seed"].items()
                    print("  seed by seed: " + ", ".join(f"{s} {100 * v:.1f}%" for s, v in seeds))
                continue
            print(f"{first:>8} vs {second:<8} {100 * r['rate']:5.1f}% wins  95% CI [{100 * lo:.1f}, "
                  f"{100 * hi:.1f}]  over {r['games']} games ({r['deals_per_game']} deals/game)")
    for what in ("discard", "peg", "peg_early", "peg_endgame"):
        for level in ("expert", "standard"):
            r = result.get(f"{level}_{what}_ms")
            if r:
                print(f"{level:>8} {what:<7} median {r['median']:7.2f} ms  p95 {r['p95']:7.2f} ms  "
                      f"p99 {r['p99']:7.2f} ms  "
                      f"max {r['max']:7.2f} ms  (CPU median {r['cpu_median']:.2f}, p95 {r['cpu_p95']:.2f}; "
                      f"n={r['n']})")
    for key in ("speed_seconds", "strength_seconds", "seconds"):
        if key in result:
            print(f"{key}: {result[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
