"""What the opponent may hold, for the expert's lookahead in the play: every rank combination when
there are few, else samples weighted by how likely each is given what the opponent has played (a
player who passed up points probably could not take them) and what they would have kept."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb, exp

from games.engine.cards import Card

from .ranks import PRIMES, rank_key, score5
from .situation import EXACT_LIMIT, KEEP_SOFT, KEEP_TRIES, PASSED_UP, PegSituation, _replies


def _opponent_hands(sit: PegSituation, rng: random.Random):
    """``(exact, hands)``: ``hands`` yields (weight, ranks) for what the opponent could hold. When
    there are few rank combinations they are all listed, exactly weighted (``exact``); otherwise
    it is an endless stream of uniform samples."""
    pool = [c for c in sit.unseen if c.value >= sit.opp_min_value]
    k = min(sit.opp_cards, len(pool))
    if k == 0:
        return True, iter([(1.0, ())])
    by_rank = Counter(c.rank for c in pool)
    ranks = sorted(by_rank)
    if comb(len(ranks) + k - 1, k) <= EXACT_LIMIT:
        hands = []
        for combo in combinations_with_replacement(ranks, k):
            ways = 1
            for r, n in Counter(combo).items():
                ways *= comb(by_rank[r], n)
            if ways:
                hands.append((float(ways), combo))
        return True, iter(hands)

    if sit.opp_cards + len(sit.opp_played) == 4 and k == sit.opp_cards and len(sit.unseen) >= 6:
        return False, _kept_samples(sit, pool, k, rng)

    def samples():
        while True:
            yield 1.0, tuple(sorted(c.rank for c in rng.sample(pool, k)))

    return False, samples()


def _kept_samples(sit: PegSituation, pool: list[Card], k: int, rng: random.Random):
    """Hands the opponent would have kept, rather than any ``k`` unseen cards.

    Deal the opponent six cards: those they have played plus unseen ones; they keep the four with
    the best average hand (ranks only) among the splits that hold every card they have played.
    A deal whose overall best split would not have kept those cards is less likely to be the real
    one, so it weighs ``KEEP_SOFT``; a keep that contradicts their goes is dealt again, and after
    ``KEEP_TRIES`` such deals a uniform sample of the pool stands in.
    """
    played = tuple(c.rank for c in sit.opp_played)
    fits = {c.rank for c in pool}
    need = 6 - len(played)
    unseen = list(sit.unseen)
    while True:
        for _ in range(KEEP_TRIES):
            ranks6 = tuple(sorted(played + tuple(c.rank for c in rng.sample(unseen, need))))
            found = _keep_with(ranks6, played)
            if found is not None:
                first, rest = found
                if all(r in fits for r in rest):
                    yield (1.0 if first else KEEP_SOFT), rest
                    break
        else:
            yield 1.0, tuple(sorted(c.rank for c in rng.sample(pool, k)))


def _keep_with(ranks6: tuple[int, ...], played: tuple[int, ...]) -> tuple[bool, tuple[int, ...]] | None:
    """The best keep of ``ranks6`` that holds ``played``: (is it the best keep of all, the kept
    ranks not yet played), or None if no keep holds them (cannot happen with four or fewer)."""
    for i, split in enumerate(_keep_order(ranks6)):
        drop = _SPLITS[split]
        rest = [r for j, r in enumerate(ranks6) if j not in drop]
        try:
            for r in played:
                rest.remove(r)
        except ValueError:
            continue  # this split lays away a card they have played
        return i == 0, tuple(rest)
    return None


_SPLITS = tuple(combinations(range(6), 2))  # which two of six sorted ranks are laid away
_KEEPS: dict[tuple[int, ...], bytes] = {}


def _keep_order(ranks6: tuple[int, ...]) -> bytes:
    """The 15 splits of six sorted ranks (indexes into ``_SPLITS``), best average hand first
    (fifteens, pairs, runs over the starters the holder cannot see). Memoised compactly: there
    are only 18,564 six-rank multisets, about 1 MB in all."""
    found = _KEEPS.get(ranks6)
    if found is None:
        table = score5()
        unseen = [4 - ranks6.count(r) for r in range(14)]
        unseen[0] = 0
        values = []
        for split, drop in enumerate(_SPLITS):
            key = rank_key(r for i, r in enumerate(ranks6) if i not in drop)
            ways = sum(n * table[key * PRIMES[r]] for r, n in enumerate(unseen) if n)
            values.append((-ways, split))
        found = _KEEPS[ranks6] = bytes(split for _, split in sorted(values))
    return found


def _history_likelihood(sit: PegSituation, remaining: tuple[int, ...]) -> float:
    """How well a hand explains the opponent's plays (``passed_up_weight``)."""
    return passed_up_weight(sit.opp_history, [c.rank for c in sit.opp_played], remaining)


def passed_up_weight(history, played: list[int], remaining: tuple[int, ...]) -> float:
    """How well a hand explains a seat's plays ``history`` ((series ranks before, rank laid) in
    order; ``played`` their ranks): players take points when they can, so each play that scored
    ``d`` less than the best card the hand held then weighs ``exp(-PASSED_UP * d)``."""
    held = list(remaining) + list(played)
    passed = 0
    for series, rank in history:
        replies = _replies(series)
        best = max(replies[r] for r in held)
        passed += best - replies[rank]
        held.remove(rank)
    return exp(-PASSED_UP * passed) if passed > 0 else 1.0


def _opp_show(sit: PegSituation, remaining: tuple[int, ...]) -> int | None:
    """The opponent's hand show on ranks (fifteens, pairs, runs; flush and nobs left out)."""
    if sit.starter is None or len(sit.opp_played) + len(remaining) != 4:
        return None
    key = rank_key(c.rank for c in sit.opp_played) * rank_key(remaining) * PRIMES[sit.starter.rank]
    return score5()[key]
