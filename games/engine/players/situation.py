"""A moment of the play as a computer player sees it (:class:`PegSituation`), what a rank laid on a
series would score, and the search's settings."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Card

PAIR_POINTS = (0, 2, 6, 12)
FAR = 10**6  # "points needed" when nobody can win this deal: out of reach
WIN = 100.0  # worth of winning the game in this deal, in points: dwarfs any point difference
POINTS_TIE = 1e-4  # a point pegged in chance units: below the win table's 1/10,000 step (WIN x 2e-4)
MAX_SAMPLES = 32  # opponent hands sampled at most when there are too many rank combinations to enumerate
MIN_SAMPLES = 6  # ... and at least, whatever the budget
NODE_BUDGET = 1500  # search nodes after which sampling stops (about 5 ms)
# Near the end, valued in chances, every node carries both sides' needs, so the memo shares few
# positions and the budget above stops after about six hands. More hands there win more (both sides
# 85 to 118, paired deals against standard, bench.ai_variant): at least 32 rather than six, +0.32
# percentage points of chance to win a deal (95% CI +0.20 to +0.44); 64 rather than 32, +0.09 more
# (-0.00 to +0.18), 16,000 deals each.
END_MIN_SAMPLES = 64
END_MAX_SAMPLES = 128
END_NODE_BUDGET = 12000
END_REACH = 30  # a deal can end the game when the leader needs at most this plus my show (peg + big hand)
HORIZON_CARDS = 7  # with this many cards still in hands, search to the end of the series only
REPLIES_CACHE = 40_000  # series whose reply points are remembered (about 10 MB at most)
EXACT_LIMIT = 40  # enumerate every rank combination of the opponent's hand up to this many
PASSED_UP = 1.0  # how sure the opponent would have taken points they could (see _history_likelihood)
KEEP_SOFT = 0.3  # weight of a sampled deal whose best keep would not have held the cards played
KEEP_TRIES = 20  # deals tried for one kept hand before a uniform sample stands in
CRIB_ESTIMATE = 4.5  # a crib's average worth, used only to judge whether the dealer counts out


def value(rank: int) -> int:
    return rank if rank < 10 else 10


def points_for(series: tuple[int, ...], count: int, rank: int) -> int:
    """Points for laying ``rank`` on ``series`` (the ranks laid since the reset) at ``count``."""
    total = count + value(rank)
    points = 2 if total == 15 or total == 31 else 0
    same = 0
    for r in reversed(series):
        if r != rank:
            break
        same += 1
    if same:
        return points + PAIR_POINTS[min(same, 3)]
    n = len(series) + 1
    if n >= 3:
        seq = (*series, rank)
        best = 0
        for length in range(3, n + 1):
            tail = seq[-length:]
            if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
                best = length
        points += best
    return points


@dataclass(frozen=True)
class PegSituation:
    """What the seat to play knows about the play (built from its ``SeatView``)."""

    hand: tuple[Card, ...]  # my cards still to play
    opp_cards: int  # how many cards the opponent still holds
    series: tuple[Card, ...]  # cards laid since the last reset, in order
    count: int
    opp_gone: bool  # the opponent said go in this series: I keep playing
    unseen: tuple[Card, ...]  # cards I cannot see
    opp_min_value: int = 1  # every card the opponent holds is worth at least this (from their goes)
    my_score: int = 0
    opp_score: int = 0
    target: int = 121
    i_am_dealer: bool = False
    my_show: int | None = None  # my hand's show total with the starter (None: unknown)
    opp_played: tuple[Card, ...] = ()  # the opponent's cards already laid this deal
    starter: Card | None = None
    peg_out_zone: int = 0
    # The opponent's plays this deal, in order, each as (ranks of the series before it, rank laid):
    # a card that passed up points says something about what else they held.
    opp_history: tuple[tuple[tuple[int, ...], int], ...] = ()

    def playable(self) -> list[Card]:
        return [c for c in self.hand if self.count + c.value <= 31]


_REPLIES: dict[tuple[int, ...], tuple[int, ...]] = {}


def _replies(series: tuple[int, ...]) -> tuple[int, ...]:
    """Points for laying each rank (index 1..13) on ``series``, -1 where it would pass 31.

    Memoised on the series (the count is a function of it): one lookup per search node.
    """
    found = _REPLIES.get(series)
    if found is None:
        if len(_REPLIES) >= REPLIES_CACHE:
            _REPLIES.clear()  # bounded memory in a long-running server; common series come back fast
        found = _REPLIES[series] = _all_replies(series)
    return found


def _all_replies(series: tuple[int, ...]) -> tuple[int, ...]:
    """``points_for(series, count, r)`` for every rank at once, in one pass over the series."""
    count = sum(r if r < 10 else 10 for r in series)
    out = [-1] * 14
    for r in range(1, 14):
        total = count + (r if r < 10 else 10)
        if total <= 31:
            out[r] = 2 if total == 15 or total == 31 else 0
    if not series:
        return tuple(out)
    last = series[-1]
    same = 0
    for r in reversed(series):
        if r != last:
            break
        same += 1
    if out[last] >= 0:
        out[last] += PAIR_POINTS[min(same, 3)]
    # Runs: the last L cards, if distinct, make a run of L + 1 with the rank that extends them at
    # either end (when they are consecutive) or fills their one gap. Longer L overwrite shorter.
    run = [0] * 14
    seen: set[int] = set()
    low, high, total = 14, 0, 0
    for length, r in enumerate(reversed(series), 1):
        if r in seen:
            break
        seen.add(r)
        low, high, total = min(low, r), max(high, r), total + r
        if length < 2:
            continue
        span = high - low
        if span == length - 1:
            if low > 1:
                run[low - 1] = length + 1
            if high < 13:
                run[high + 1] = length + 1
        elif span == length:
            run[(low + high) * (length + 1) // 2 - total] = length + 1  # the missing rank
    for r in range(1, 14):
        if run[r] and out[r] >= 0:
            out[r] += run[r]
    return tuple(out)
