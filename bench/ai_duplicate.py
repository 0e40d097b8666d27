"""Duplicate games for ``bench.ai --duplicate``: each deal sequence played twice, seats swapped.

Pair ``i`` uses one secret and one ``random.Random`` seed, ``(seed, i)``: the cut, and so the first
dealer, and every deck (``deck.deal_seed``) are the same in both games, so in deal ``k`` the same
seat holds the same six cards and deals or not in both. The first-named level sits in the first
dealer's seat in one game and in the other seat in the other, so luck of the cards cancels within
a pair. Reported: the first level's win rate over all games with a Wilson 95% interval (which takes
the games as independent, so it is wider than it need be), the pairs' own interval (each pair
scores 0, 1/2 or 1; a normal interval on their mean, narrower because the cards cancel), how often
the pair was split, and the games that reached a deal with both sides over ``ENDGAME`` points at
its start, whose own win rate shows the play near the end.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
from dataclasses import dataclass

from games.engine.game import apply, new_game
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.view import view

ENDGAME = 90


@dataclass(frozen=True)
class DuplicateGame:
    first_won: bool
    endgame: bool  # a deal started with both sides over ENDGAME


def play_duplicate(first: str, second: str, seed: int, index: int, first_deals: bool) -> DuplicateGame:
    """One game of pair ``index``; ``first_deals``: the first level holds the first dealer's seat."""
    tag = f"{seed}:duplicate:{index}"
    rng = random.Random(tag)
    state = new_game(HouseRules(), tag.encode())
    while state.phase == "cut":
        for seat in state.to_act:
            state, _ = apply(state, choose_action(view(state, seat), "easy", rng))
    first_seat = state.dealer if first_deals else 1 - state.dealer
    levels = {first_seat: first, 1 - first_seat: second}
    endgame = False
    while state.phase not in ("game_over", "match_over"):
        if state.phase == "discard" and min(state.scores) > ENDGAME:
            endgame = True
        for seat in state.to_act:
            if state.phase in ("game_over", "match_over"):
                break
            state, _ = apply(state, choose_action(view(state, seat), levels[seat], rng))
    return DuplicateGame(state.results[-1].winner == first_seat, endgame)


def _chunk(args) -> list[tuple[DuplicateGame, DuplicateGame]]:
    first, second, seed, indexes = args
    return [(play_duplicate(first, second, seed, i, True), play_duplicate(first, second, seed, i, False))
            for i in indexes]


def duplicate(first: str, second: str, pairs: int, seed: int, processes: int, wilson, seeds: int = 1) -> dict:
    """``pairs`` pairs of games for each of ``seeds`` consecutive seeds from ``seed``, reported
    together (a seed's games are the same whether run alone or with others) and seed by seed."""
    step = max(1, min(25, pairs // (8 * processes)))
    chunks = [(first, second, s, range(i, min(pairs, i + step)))
              for s in range(seed, seed + seeds) for i in range(0, pairs, step)]
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            parts = pool.map(_chunk, chunks)
    else:
        parts = [_chunk(c) for c in chunks]
    by_seed: dict[int, list[int]] = {}
    for (_, _, s, _), part in zip(chunks, parts, strict=True):
        tally = by_seed.setdefault(s, [0, 0])
        tally[0] += sum(a.first_won + b.first_won for a, b in part)
        tally[1] += 2 * len(part)
    done = [p for part in parts for p in part]
    games = [g for pair in done for g in pair]
    wins = sum(g.first_won for g in games)
    lo, hi = wilson(wins, len(games))
    scores = [(a.first_won + b.first_won) / 2 for a, b in done]
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    late = [g for g in games if g.endgame]
    late_wins = sum(g.first_won for g in late)
    late_lo, late_hi = wilson(late_wins, len(late))
    return {
        "games": len(games), "pairs": len(done), "wins": wins, "rate": round(wins / len(games), 4),
        "pair_counts": [scores.count(0.0), scores.count(0.5), scores.count(1.0)],
        "ci95": [round(lo, 4), round(hi, 4)],
        "pairs_ci95": [round(mean - half, 4), round(mean + half, 4)],
        "split_pairs": round(sum(s == 0.5 for s in scores) / len(scores), 4),
        "endgame_games": len(late), "endgame_wins": late_wins,
        "endgame_rate": round(late_wins / max(1, len(late)), 4),
        "endgame_ci95": [round(late_lo, 4), round(late_hi, 4)],
        "rate_by_seed": {s: round(w / n, 4) for s, (w, n) in by_seed.items()},
    }
