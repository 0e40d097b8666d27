"""What the two-player play is worth: the expert's pegging margin on paired deals.

    python -m bench.ai_pegging --deals 2000 --knows-hand      # the search with the other hand known

Each deal is dealt at 0-0 and laid away by the reference on both sides; the play is then played
twice from each seat: once with the variant in that seat against the reference, once with the
reference in both. The figure is the variant's pegging margin over the reference's on the same
cards, a deal's two seats averaged, with a 95% interval. ``--knows-hand`` lets the variant's search
see the other side's hand (an upper bound on what inferring that hand could be worth); with no
option the variant is the reference itself and the margin is exactly 0 (a check of the harness).
"""

from __future__ import annotations

import argparse
import random
import time

from bench.paired_deals import differences, laid_away, pegged, summary
from games.engine.actions import Play
from games.engine.players import choose_action, play_search
from games.engine.players.choose import peg_situation
from games.engine.view import view


def _variant(state, seat: int, rng: random.Random, knows_hand: bool):
    v = view(state, seat)
    plays = [a for a in v.legal_actions if isinstance(a, Play)]
    if len(plays) < 2:
        return choose_action(v, "reference", rng)
    sampled = play_search._opponent_hands
    if knows_hand:  # the search's hands of the other side: the one it really holds
        held = tuple(sorted(c.rank for c in state.hands[1 - seat]))
        play_search._opponent_hands = lambda sit, rng: (True, iter([(1.0, held)]))
    try:
        card = play_search.search_play(peg_situation(v), rng)
    finally:
        play_search._opponent_hands = sampled
    return next(a for a in plays if a.card == card)


def margin(seed: int, i: int, seat: int, knows_hand: bool | None) -> int:
    """``seat``'s pegging margin in deal ``i``; ``knows_hand`` None: the reference plays it."""
    state, rng = laid_away(seed, i, "reference")

    def decide(state, turn):
        if knows_hand is not None and turn == seat:
            return _variant(state, seat, rng, knows_hand)
        return choose_action(view(state, turn), "reference", rng)

    points = pegged(state, decide)
    return points[seat] - points[1 - seat]


def _chunk(args) -> list[float]:
    seed, start, stop, knows_hand = args
    return [sum(margin(seed, i, seat, knows_hand) - margin(seed, i, seat, None) for seat in (0, 1)) / 2
            for i in range(start, stop)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--knows-hand", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    chunks = [(args.seed, i, min(args.deals, i + 50), args.knows_hand) for i in range(0, args.deals, 50)]
    diffs = differences(_chunk, chunks, args.processes)
    mean, half, changed = summary(diffs)
    what = "knowing the other hand" if args.knows_hand else "the reference itself"
    print(f"{what}: {mean:+.3f} points of pegging margin a deal (95% CI {mean - half:+.3f} to "
          f"{mean + half:+.3f}) over {len(diffs):,} deals, seed {args.seed}; "
          f"{changed:.0%} of deals played differently")
    print(f"seconds: {time.perf_counter() - start:.1f}")


if __name__ == "__main__":
    main()
