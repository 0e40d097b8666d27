"""Deals for the paired benchmarks of the play (``bench.ai_pegging``, ``bench.peg_calibration``):
deal ``i`` of a seed is the same cards and the same random choices whoever plays it."""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
from collections.abc import Callable

from games.engine.actions import Action
from games.engine.cards import DECK, Card
from games.engine.game import apply
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.state import GameState
from games.engine.testing import start_deal
from games.engine.view import view

SHOWS = ("hand", "crib")  # points counted after the play, not pegged in it


def shuffled(seed: int, i: int) -> tuple[list[Card], random.Random]:
    """Deal ``i``'s deck, and the random source that shuffled it (what else the deal draws comes
    from it, after the cards)."""
    rng = random.Random(f"{seed}:{i}")
    deck = list(DECK)
    rng.shuffle(deck)
    return deck, rng


def laid_away(seed: int, i: int, level: str) -> tuple[GameState, random.Random]:
    """Deal ``i`` at 0-0 (seat 0 deals), both seats laid away by ``level`` and the starter cut;
    with the random source the play goes on with."""
    deck, _ = shuffled(seed, i)
    state = start_deal(HouseRules(), dealer=0, hands=(deck[:6], deck[6:12]), starter=deck[12], scores=(0, 0))
    play_rng = random.Random(f"{seed}:{i}:play")
    while state.phase in ("discard", "starter"):
        for seat in state.to_act:
            state, _ = apply(state, choose_action(view(state, seat), level, play_rng))
    return state, play_rng


def pegged(state: GameState, decide: Callable[[GameState, int], Action]) -> list[int]:
    """Play the play out, ``decide(state, seat)`` choosing each action; the points each seat pegged."""
    points = [0, 0]
    while state.phase == "play":
        state, events = apply(state, decide(state, state.turn))
        for e in events:
            if e.points and e.seat is not None and e.kind not in SHOWS:
                points[e.seat] += e.points
    return points


def differences(chunk: Callable[[tuple], list[float]], chunks: list[tuple], processes: int) -> list[float]:
    """Each chunk's per-deal differences, in deal order, on ``processes`` processes."""
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            return [d for part in pool.map(chunk, chunks) for d in part]
    return [d for c in chunks for d in chunk(c)]


def summary(diffs: list[float]) -> tuple[float, float, float]:
    """(mean, half-width of its 95% interval, share of deals played differently)."""
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return mean, half, sum(d != 0 for d in diffs) / len(diffs)
