"""The play (pegging) for computer players: points of a card, the greedy rule, and the lookahead.

Pegging depends only on ranks (and count values), so the search works on tuples of ranks.

The expert (``search_play``) looks ahead over the rest of the play. It cannot see the opponent's
cards, so it averages over hands the opponent could hold (perfect-information Monte Carlo):

* **Which hands.** The pool is the unseen cards (52 minus its own hand and discards, the starter
  and the cards played) that fit what the opponent has shown: every card they still hold is worth
  more than 31 minus the count at which they last said go (or a go was scored). When few rank
  combinations fit (``EXACT_LIMIT``) they are all enumerated, weighted by how many card
  combinations give them. Otherwise hands are sampled as the opponent would have kept them:
  six cards (those they have played plus unseen ones) split by the best average hand among the
  splits that keep the cards played (``_kept_samples``).
* **How likely.** Each hand is weighted by how well it explains the opponent's plays: a play that
  passed up points the hand could have scored makes that hand less likely (``PASSED_UP``).
* **How deep.** For each hand the rest of the play is solved as a two-player game with both hands
  known: alpha-beta minimax, the opponent pegging as well as possible. Positions at the start of
  a series are remembered and shared by all hands of a decision. Early in the play (at least
  ``HORIZON_CARDS`` cards still in hands) only the current series is searched, which keeps the
  first lead and reply fast; tests showed no loss of strength from this.
* **How much work.** Sampling stops after ``NODE_BUDGET`` search nodes (at least ``MIN_SAMPLES``,
  at most ``MAX_SAMPLES`` hands): a node count, not a clock, so a seeded game replays exactly.

It plays the card with the best weighted average. Near the end of the game (``endgame_matters``)
every position is judged by who wins: reaching the target in the play is worth ``WIN``, and at the
end of the play the show is settled in its order (pone's hand, dealer's hand, the crib at its
average ``CRIB_ESTIMATE``, the peg-out zone honoured), so "most points" becomes "best chance to win":
peg out when that is the only way, hold the opponent back when they would count out first.

>>> points_for((7, 5), 12, 6)  # 7-5-6: a run of three
3
>>> points_for((5, 5), 10, 5)  # pair royal, and fifteen
8
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb, exp

from games.engine.cards import Card

from .ranks import PRIMES, rank_key, score5

PAIR_POINTS = (0, 2, 6, 12)
FAR = 10**6  # "points needed" when nobody can win this deal: out of reach
WIN = 100.0  # worth of winning the game in this deal, in points: dwarfs any point difference
MAX_SAMPLES = 32  # opponent hands sampled at most when there are too many rank combinations to enumerate
MIN_SAMPLES = 6  # ... and at least, whatever the budget
NODE_BUDGET = 1500  # search nodes after which sampling stops (about 5 ms)
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


# --- greedy (standard) ------------------------------------------------------------------------


def greedy_play(sit: PegSituation) -> Card:
    """Most points now; among equals the card that leaves the opponent least to score at once.

    The risk of a card is what a random unseen card would score in reply (pairs, fifteens, 31,
    runs), plus a penalty for leaving the count at 5 or 21, where the many ten-cards score.
    """
    series = tuple(c.rank for c in sit.series)
    pool = Counter(c.rank for c in sit.unseen if c.value >= sit.opp_min_value)
    size = sum(pool.values()) or 1

    def key(card: Card):
        now = points_for(series, sit.count, card.rank)
        count = sit.count + card.value
        after = (*series, card.rank) if count < 31 else ()
        count %= 31
        risk = sum(n * points_for(after, count, r) for r, n in pool.items() if count + value(r) <= 31) / size
        if count in (5, 21):
            risk += 0.5
        return (-now, risk, -card.value, card.index)

    return min(sit.playable(), key=key)


# --- lookahead (expert) -----------------------------------------------------------------------


class _Solver:
    """Perfect-information alpha-beta minimax of the rest of the play, on ranks, for one opponent hand.

    A node's value is the point difference of the whole play (mine minus theirs, ``acc`` carries
    what is already scored) plus, near the end of the game, the show; or ``+-WIN`` once the game is
    decided. ``need_me``/``need_opp`` are the points each side still needs to win.
    """

    def __init__(self, sit: PegSituation, opp_hand_show: int | None, memo: dict, track: bool) -> None:
        self.endgame = opp_hand_show is not None
        # Whether the needs are real (near the end); otherwise they stay at FAR, out of reach, and
        # equal on every path so the memo shares positions.
        self.track = track
        self.memo = memo
        # Early in the play, away from the end of the game, only the current series is searched.
        self.horizon = not self.endgame and len(sit.hand) + sit.opp_cards >= HORIZON_CARDS
        self.show_me = sit.my_show or 0
        self.show_opp = opp_hand_show or 0
        self.sit = sit
        self.nodes = 0

    def leaf(self, need_me: int, need_opp: int, acc: float) -> float:
        """End of the play: settle the show (pone, dealer, crib) when it can decide the game."""
        if not self.endgame:
            return acc
        sit = self.sit
        # A seat in the peg-out zone when the show begins scores nothing in it, crib included.
        me_out = need_me <= sit.peg_out_zone
        opp_out = need_opp <= sit.peg_out_zone
        show_me = 0 if me_out else self.show_me
        show_opp = 0 if opp_out else self.show_opp
        crib = CRIB_ESTIMATE
        if sit.i_am_dealer:  # the opponent counts first
            if show_opp >= need_opp:
                return -WIN
            if show_me >= need_me or (not me_out and show_me + crib >= need_me):
                return WIN
            return acc + show_me - show_opp + (0 if me_out else crib)
        if show_me >= need_me:
            return WIN
        if show_opp >= need_opp or (not opp_out and show_opp + crib >= need_opp):
            return -WIN
        return acc + show_me - show_opp - (0 if opp_out else crib)

    def new_series(self, me, opp, lead_me, need_me, need_opp, acc) -> float:
        """A new series: what follows depends only on the cards left, the leader and the needs, not
        on how the play got here, so it is solved once (full window) and remembered; the memo is
        shared by every opponent hand of the decision."""
        if self.horizon:
            return acc  # early in the play the rest is left out: see HORIZON_CARDS
        key = (me, opp, lead_me, need_me, need_opp, self.show_opp)
        future = self.memo.get(key)
        if future is None:
            future = self.memo[key] = self._solve(me, opp, (), 0, lead_me, False, False, None, need_me,
                                                  need_opp, 0.0, -WIN - 1, WIN + 1)
        return future if future >= WIN or future <= -WIN else acc + future

    def _solve(self, me, opp, series, count, my_turn, me_gone, opp_gone, last_me, need_me, need_opp,
               acc, alpha, beta) -> float:
        self.nodes += 1
        hand = me if my_turn else opp
        replies = _replies(series)
        moves = []
        seen = -1
        for i, r in enumerate(hand):
            if r != seen:
                seen = r
                pts = replies[r]
                if pts >= 0:
                    moves.append((pts, i, r))
        if not moves:  # the player to move cannot play: go
            return self._no_play(me, opp, series, count, my_turn, me_gone, opp_gone, last_me,
                                 need_me, need_opp, acc, alpha, beta)
        moves.sort(reverse=True)  # the most points first: good ordering makes the cut-offs early
        if my_turn:
            best = -WIN - 1
            for pts, i, r in moves:
                v = self.play(me[:i] + me[i + 1 :], opp, series, count, r, pts, True, me_gone, opp_gone,
                              need_me, need_opp, acc, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        best = WIN + 1
        for pts, i, r in moves:
            v = self.play(me, opp[:i] + opp[i + 1 :], series, count, r, pts, False, me_gone, opp_gone,
                          need_me, need_opp, acc, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def play(self, me, opp, series, count, r, pts, by_me, me_gone, opp_gone, need_me, need_opp,
             acc, alpha, beta) -> float:
        """Value of laying rank ``r`` worth ``pts`` (already taken out of the player's hand)."""
        count += r if r < 10 else 10
        if not me and not opp and count != 31:
            pts += 1  # last card (31 already scored 2)
        if by_me:
            if pts >= need_me:
                return WIN
            if self.track:
                need_me -= pts
            acc += pts
        else:
            if pts >= need_opp:
                return -WIN
            if self.track:
                need_opp -= pts
            acc -= pts
        if not me and not opp:
            return self.leaf(need_me, need_opp, acc)
        if count == 31:  # the series ends; the other player leads the next if they have cards
            lead_me = not by_me if (opp if by_me else me) else by_me
            return self.new_series(me, opp, lead_me, need_me, need_opp, acc)
        next_me = by_me if (opp_gone if by_me else me_gone) else not by_me
        return self._solve(me, opp, (*series, r), count, next_me, me_gone, opp_gone, by_me, need_me, need_opp,
                           acc, alpha, beta)

    def _no_play(self, me, opp, series, count, my_turn, me_gone, opp_gone, last_me, need_me, need_opp,
                 acc, alpha, beta) -> float:
        other = opp if my_turn else me
        other_gone = opp_gone if my_turn else me_gone
        if not other_gone and any(count + (r if r < 10 else 10) <= 31 for r in other):
            if my_turn:
                return self._solve(me, opp, series, count, False, True, opp_gone, last_me, need_me, need_opp,
                                   acc, alpha, beta)
            return self._solve(me, opp, series, count, True, me_gone, True, last_me, need_me, need_opp,
                               acc, alpha, beta)
        # Nobody can play: 1 for the go to whoever laid the last card, then a new series led by
        # the other player (or by the last player if the other has no cards left).
        if last_me:
            if need_me <= 1:
                return WIN
            if self.track:
                need_me -= 1
            acc += 1
        else:
            if need_opp <= 1:
                return -WIN
            if self.track:
                need_opp -= 1
            acc -= 1
        lead_me = not last_me if (opp if last_me else me) else last_me
        return self.new_series(me, opp, lead_me, need_me, need_opp, acc)


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
    """How well a hand explains the opponent's plays: players take points when they can, so each
    play that scored ``d`` less than the best card the hand held then weighs ``exp(-PASSED_UP * d)``."""
    held = list(remaining) + [c.rank for c in sit.opp_played]
    passed = 0
    for series, rank in sit.opp_history:
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


def endgame_matters(sit: PegSituation) -> bool:
    """Whether this deal can end the game: then wins count, not points (30 = peg plus a big hand)."""
    reach = 30 + (sit.my_show or 0)
    return sit.target - max(sit.my_score, sit.opp_score) <= reach


def search_play(sit: PegSituation, rng: random.Random) -> Card:
    """The expert's card: best average over the opponent's possible hands of the minimax value."""
    playable = sit.playable()
    distinct = {c.rank: c for c in sorted(playable, key=lambda c: c.index)}
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    me_all = tuple(sorted(c.rank for c in sit.hand))
    series = tuple(c.rank for c in sit.series)
    endgame = endgame_matters(sit)
    totals = dict.fromkeys(distinct, 0.0)
    need_me = sit.target - sit.my_score if endgame else FAR
    need_opp = sit.target - sit.opp_score if endgame else FAR
    nodes = 0
    cache: dict[tuple[int, ...], dict[int, float]] = {}
    memo: dict = {}
    exact, hands = _opponent_hands(sit, rng)
    for samples, (weight, opp) in enumerate(hands, 1):
        if sit.opp_history:
            weight *= _history_likelihood(sit, opp)
        values = cache.get(opp)
        if values is None:
            solver = _Solver(sit, _opp_show(sit, opp) if endgame else None, memo, endgame)
            values = cache[opp] = {}
            for r in distinct:
                i = me_all.index(r)
                rest = me_all[:i] + me_all[i + 1 :]
                values[r] = solver.play(rest, opp, series, sit.count, r, _replies(series)[r], True, False,
                                        sit.opp_gone, need_me, need_opp, 0.0, -WIN - 1, WIN + 1)
            nodes += solver.nodes
        for r in distinct:
            totals[r] += weight * values[r]
        # Stop sampling once the work budget is spent (a node count, not a clock, so the choice
        # is reproducible); exact enumerations always run to the end.
        if not exact and (samples >= MAX_SAMPLES or (samples >= MIN_SAMPLES and nodes >= NODE_BUDGET)):
            break
    best = max(distinct, key=lambda r: (totals[r], -r))
    return distinct[best]
