"""The expert's play at tables of three and four: a lookahead like the two-player ``search_play``,
for more seats.

Seats are numbered from the one to play (0) round to the left, the order the play goes in. The
other hands are unseen, so the search averages over deals of the unseen cards to the other seats
(perfect-information Monte Carlo), each consistent with what that seat has shown: a seat that said
go, or could not play when a go was scored, holds only cards worth more than 31 minus the count
then (``TableSituation.min_value``), and a deal that would have let a seat take points it passed
up weighs less (``sampling.passed_up_weight``). Partners at four are dealt like anyone else: a
partner's hand is as hidden as an opponent's.

For each deal the rest of the play is solved with every hand known, by the engine's own rules
(turn to the left, a seat that cannot play says go and is skipped, the last to lay a card scores
the go, 31 and the last card). Every seat plays for its own side: it maximises its side's points
minus the average of the other sides' (max^n; at four the two partnerships make it a zero-sum
minimax). Reaching the target in the play wins outright (``WIN``). Early in the play (at least
``HORIZON_CARDS`` cards still in hands) only the current series is searched, as in the
two-player search. It searches ``SAMPLES`` deals, fewer if the nodes reach ``NODE_CAP`` first (at
least ``MIN_SAMPLES``): a node count, not a clock, so a seeded game replays exactly. Many deals
matter more here than with two players: with three hands unseen at four, five or so deals judged
no better than greedy play, thirty-two clearly better.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine.cards import DECK, Card
from games.engine.view import SeatView

from .sampling import passed_up_weight
from .situation import FAR, WIN, _replies

HORIZON_CARDS = 9  # with this many cards still in hands, search to the end of the series only
SAMPLES = 32  # deals of the unseen cards searched for a decision
NODE_CAP = 30000  # ... unless the search has taken this many nodes first (about 0.3 s at worst)
MIN_SAMPLES = 4  # ... and at least this many deals, whatever the nodes
DEAL_TRIES = 20  # random deals tried for one that fits every seat's goes before the goes are relaxed


@dataclass(frozen=True)
class TableSituation:
    """What the seat to play knows, with seats counted from it (0) round to the left."""

    hand: tuple[Card, ...]
    sizes: tuple[int, ...]  # cards each seat still holds
    series: tuple[Card, ...]
    count: int
    gone: tuple[bool, ...]  # who has said go in this series
    last: int | None  # the seat that laid the series' last card (None at its start)
    unseen: tuple[Card, ...]
    min_value: tuple[int, ...]  # every card a seat holds is worth at least this (from the goes)
    sides: tuple[int, ...]  # each seat's side; mine is 0
    needs: tuple[int, ...]  # points each side still needs to win (FAR: out of reach this deal)
    played: tuple[tuple[Card, ...], ...] = ()  # each seat's cards laid this deal
    # Each seat's plays this deal: (ranks of the series before it, rank laid).
    history: tuple[tuple[tuple[tuple[int, ...], int], ...], ...] = ()

    def playable(self) -> list[Card]:
        return [c for c in self.hand if self.count + c.value <= 31]


def table_situation(view: SeatView, endgame_reach: int = 31) -> TableSituation:
    """What ``view.seat`` knows about the play, seats counted from it. The needs are tracked only
    when a side is within ``endgame_reach`` of the target (the most a deal's play could peg is
    about that), so far from the end positions are shared whatever the scores."""
    n = view.players
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    seats = [(me + i) % n for i in range(n)]
    seen = set(view.kept) | set(view.discards) | set(view.hand) | {c for _, c in view.plays}
    if view.starter is not None:
        seen.add(view.starter)
    min_value = [1] * n
    history: list[list] = [[] for _ in range(n)]
    series: list[int] = []
    count = 0
    for event in view.log:
        if event.kind == "play":
            rank = event.cards[0].rank
            history[rel(event.seat)].append((tuple(series), rank))
            series.append(rank)
            count += event.cards[0].value
        elif event.kind == "reset":
            series, count = [], 0
        elif event.kind == "say_go":
            min_value[rel(event.seat)] = max(min_value[rel(event.seat)], 32 - count)
        elif event.kind == "go":  # nobody could play: every hand then held only cards that did not fit
            min_value = [max(m, 32 - count) for m in min_value]
    my_side = view.side_of(me)
    sides = tuple((view.side_of(s) - my_side) % view.sides for s in seats)
    endgame = view.target - max(view.scores) <= endgame_reach
    needs = [FAR] * view.sides
    if endgame:
        for seat in seats:
            needs[sides[rel(seat)]] = view.target - view.scores[view.side_of(seat)]
    return TableSituation(
        hand=view.hand,
        sizes=tuple(view.hand_sizes[s] for s in seats),
        series=tuple(c for _, c in view.series),
        count=view.count,
        gone=tuple(view.gone[s] for s in seats),
        last=rel(view.series[-1][0]) if view.series else None,
        unseen=tuple(c for c in DECK if c not in seen),
        min_value=tuple(min_value[rel(s)] for s in seats),
        sides=sides,
        needs=tuple(needs),
        played=tuple(tuple(c for p, c in view.plays if p == s) for s in seats),
        history=tuple(tuple(history[rel(s)]) for s in seats),
    )


def _value(rank: int) -> int:
    return rank if rank < 10 else 10


class _TableSolver:
    """The rest of the play with every hand known (ranks, sorted), each seat for its side.

    A node's value is a tuple of the points each side scores from there on (``WIN`` for a side
    that reaches the target). Positions are remembered whole, so deals that reach the same
    position share it."""

    def __init__(self, sides: tuple[int, ...], track: bool, horizon: bool, memo: dict) -> None:
        self.n = len(sides)
        self.sides = sides
        self.k = max(sides) + 1
        self.zero = (0.0,) * self.k
        self.track = track
        self.horizon = horizon
        self.memo = memo
        self.nodes = 0

    def utility(self, v: tuple[float, ...], side: int) -> float:
        mine = v[side]
        return mine - (sum(v) - mine) / (self.k - 1)

    def _won(self, side: int) -> tuple[float, ...]:
        return tuple(WIN if s == side else 0.0 for s in range(self.k))

    def _add(self, v: tuple[float, ...], side: int, pts: int) -> tuple[float, ...]:
        if not pts:
            return v
        return v[:side] + (v[side] + pts,) + v[side + 1:]

    def _needs(self, needs: tuple[int, ...], side: int, pts: int) -> tuple[int, ...]:
        if not self.track or not pts:
            return needs
        return needs[:side] + (needs[side] - pts,) + needs[side + 1:]

    def node(self, hands, series, count, turn, gone, last, needs) -> tuple[float, ...]:
        key = (hands, series, turn, gone, last, needs)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        replies = _replies(series)
        side = self.sides[turn]
        best = None
        best_u = 0.0
        seen = -1
        for i, r in enumerate(hands[turn]):
            if r == seen:
                continue
            seen = r
            pts = replies[r]
            if pts < 0:
                continue
            v = self.play(hands, turn, i, r, pts, series, count, gone, needs)
            u = self.utility(v, side)
            if best is None or u > best_u:
                best, best_u = v, u
        if best is None:  # nothing fits: go, and the turn passes on
            gone = gone[:turn] + (True,) + gone[turn + 1:]
            best = self.advance(hands, series, count, turn, gone, last, needs)
        self.memo[key] = best
        return best

    def play(self, hands, seat, i, r, pts, series, count, gone, needs) -> tuple[float, ...]:
        """Seat ``seat`` lays rank ``r`` (index ``i`` of its hand), worth ``pts``."""
        hand = hands[seat]
        hands = hands[:seat] + (hand[:i] + hand[i + 1:],) + hands[seat + 1:]
        count += _value(r)
        empty = not any(hands)
        if empty and count != 31:
            pts += 1  # the last card
        side = self.sides[seat]
        if pts >= needs[side]:
            return self._won(side)
        needs = self._needs(needs, side, pts)
        if empty:
            future = self.zero
        elif count == 31:
            future = self.reset(hands, seat, needs)
        else:
            future = self.advance(hands, (*series, r), count, seat, gone, seat, needs)
        return self._add(future, side, pts)

    def advance(self, hands, series, count, after, gone, last, needs) -> tuple[float, ...]:
        """The turn passes left of ``after``; when nobody can play, the go to ``last`` and a reset."""
        n = self.n
        for step in range(1, n + 1):
            seat = (after + step) % n
            hand = hands[seat]
            if not hand or gone[seat]:
                continue
            if seat != last or count + _value(hand[0]) <= 31:
                return self.node(hands, series, count, seat, gone, last, needs)
            break
        side = self.sides[last]
        if needs[side] <= 1:
            return self._won(side)
        return self._add(self.reset(hands, last, self._needs(needs, side, 1)), side, 1)

    def reset(self, hands, last, needs) -> tuple[float, ...]:
        """A new series, led by the next seat after ``last`` that holds cards."""
        if self.horizon:
            return self.zero
        n = self.n
        lead = next((last + step) % n for step in range(1, n + 1) if hands[(last + step) % n])
        return self.node(hands, (), 0, lead, (False,) * n, None, needs)


def deal_others(sit: TableSituation, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """One deal of the unseen cards to the other seats that fits their goes (ranks, sorted), or,
    after ``DEAL_TRIES`` misses, one that fits them as far as the pool allows."""
    order = sorted(range(1, len(sit.sizes)), key=lambda s: -sit.min_value[s])
    for attempt in range(DEAL_TRIES + 1):
        strict = attempt < DEAL_TRIES
        pool = list(sit.unseen)
        hands: list[tuple[int, ...]] = [()] * len(sit.sizes)
        for seat in order:
            fits = [c for c in pool if c.value >= sit.min_value[seat]] if strict else pool
            k = sit.sizes[seat]
            if len(fits) < k:
                if strict:
                    break
                fits = pool
            chosen = rng.sample(fits, min(k, len(fits)))
            for c in chosen:
                pool.remove(c)
            hands[seat] = tuple(sorted(c.rank for c in chosen))
        else:
            return tuple(hands)
    raise AssertionError("unreachable: the last attempt always deals")  # pragma: no cover


def table_play(sit: TableSituation, rng: random.Random) -> Card:
    """The expert's card at a table of three or four: the best average over deals of the unseen
    cards of each card's searched value for its side."""
    playable = sit.playable()
    distinct = {c.rank: c for c in sorted(playable, key=lambda c: c.index)}
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    mine = tuple(sorted(c.rank for c in sit.hand))
    series = tuple(c.rank for c in sit.series)
    track = any(need < FAR for need in sit.needs)
    horizon = len(sit.hand) + sum(sit.sizes[1:]) >= HORIZON_CARDS
    solver = _TableSolver(sit.sides, track, horizon, {})
    totals = dict.fromkeys(distinct, 0.0)
    replies = _replies(series)
    for samples in range(1, SAMPLES + 1):
        others = deal_others(sit, rng)
        weight = 1.0
        for seat in range(1, len(sit.sizes)):
            if sit.history and sit.history[seat]:
                weight *= passed_up_weight(sit.history[seat], [c.rank for c in sit.played[seat]],
                                           others[seat])
        hands = (mine, *others[1:])
        for r in distinct:
            v = solver.play(hands, 0, mine.index(r), r, replies[r], series, sit.count, sit.gone, sit.needs)
            totals[r] += weight * solver.utility(v, 0)
        # A node count, not a clock, so the choice is reproducible: it bounds the slowest decisions.
        if samples >= MIN_SAMPLES and solver.nodes >= NODE_CAP:
            break
    best = max(distinct, key=lambda r: (totals[r], -r))
    return distinct[best]
