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
  ``HORIZON_CARDS`` cards still in hands) and away from the end of the game only the current
  series is searched, which keeps the first lead and reply fast; tests showed no loss of strength
  from this.
* **How much work.** Sampling stops after ``NODE_BUDGET`` search nodes (at least ``MIN_SAMPLES``,
  at most ``MAX_SAMPLES`` hands): a node count, not a clock, so a seeded game replays exactly.
  Near the end of the game the budget is larger (``END_NODE_BUDGET``, at least
  ``END_MIN_SAMPLES`` hands): there every hand searched is worth more.

It plays the card with the best weighted average. The expert (``by_chances``) values every line by
who wins: reaching the target in the play is worth ``WIN``, and the end of the play is worth the
chance to win from there (``play_end_chances``: the show in its order, a crib as cribs come, then the
next deal's chance from the win-probability table), so a line that leaves 60% is preferred to one
that leaves 55% even when neither decides the game, and of two lines pegging the same margin the
one whose points fall where they count more. Where the table cannot tell lines apart (a game all
but won or lost) the points pegged decide (``POINTS_TIE``). Without the table (another target, the
peg-out zone) and for the levels below the expert, a line is worth its points, and near the end of
the game (``endgame_matters``) the show is settled in its order (pone's hand, dealer's hand, the
crib at its average ``CRIB_ESTIMATE``, the peg-out zone honoured), so the search still pegs out
when that is the only way and holds the opponent back when they would count out first.

>>> points_for((7, 5), 12, 6)  # 7-5-6: a run of three
3
>>> points_for((5, 5), 10, 5)  # pair royal, and fifteen
8
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from games.engine.cards import Card

from . import play_end_chances
from .play_end_chances import LeafChances
from .sampling import _history_likelihood, _opp_show, _opponent_hands
from .situation import (
    CRIB_ESTIMATE,
    END_MAX_SAMPLES,
    END_MIN_SAMPLES,
    END_NODE_BUDGET,
    END_REACH,
    FAR,
    HORIZON_CARDS,
    MAX_SAMPLES,
    MIN_SAMPLES,
    NODE_BUDGET,
    POINTS_TIE,
    WIN,
    PegSituation,
    _replies,
    points_for,
    value,
)

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

    A node's value is, with ``chances``, ``WIN x (2p - 1)`` for the chance ``p`` to win the line
    leaves; otherwise the point difference of the whole play (mine minus theirs, ``acc`` carries
    what is already scored) plus, near the end of the game, the show; or ``+-WIN`` once the game is
    decided. ``need_me``/``need_opp`` are the points each side still needs to win.
    """

    def __init__(self, sit: PegSituation, opp_hand_show: int | None, memo: dict, track: bool,
                 chances: LeafChances | None = None, near_end: bool = False) -> None:
        self.endgame = opp_hand_show is not None
        # Leaves in winning chances (``play_end_chances``): then a value never carries the points so far.
        self.chances = chances if self.endgame else None
        # Whether the needs are real (in chances, or near the end); otherwise they stay at FAR, out
        # of reach, and equal on every path so the memo shares positions.
        self.track = track
        self.memo = memo
        # Early in the play, away from the end of the game, only the current series is searched.
        self.horizon = not near_end and len(sit.hand) + sit.opp_cards >= HORIZON_CARDS
        self.show_me = sit.my_show or 0
        self.show_opp = opp_hand_show or 0
        self.sit = sit
        self.nodes = 0

    def leaf(self, need_me: int, need_opp: int, acc: float) -> float:
        """End of the play: settle the show (pone, dealer, crib) when it can decide the game."""
        if not self.endgame:
            return acc
        sit = self.sit
        if self.chances is not None:
            # Where the chance cannot tell lines apart (a game all but won or lost) the points
            # pegged do: ties go to the margin, at a weight below the table's precision.
            pegged = sit.opp_score - sit.my_score + need_opp - need_me
            return self.chances.value(need_me, need_opp, self.show_me, self.show_opp) + POINTS_TIE * pegged
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
        if self.horizon:  # early in the play the rest is left out: see HORIZON_CARDS
            return self.leaf(need_me, need_opp, acc)
        key = (me, opp, lead_me, need_me, need_opp, self.show_opp)
        future = self.memo.get(key)
        if future is None:
            future = self.memo[key] = self._solve(me, opp, (), 0, lead_me, False, False, None, need_me,
                                                  need_opp, 0.0, -WIN - 1, WIN + 1)
        if self.chances is not None or future >= WIN or future <= -WIN:
            return future
        return acc + future

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


def endgame_matters(sit: PegSituation) -> bool:
    """Whether this deal can end the game: then wins count, not points."""
    reach = END_REACH + (sit.my_show or 0)
    return sit.target - max(sit.my_score, sit.opp_score) <= reach


@dataclass(frozen=True)
class CardValues:
    """What the search makes of each card it could lay (by rank): the weighted sum of its value
    over the hands searched (``totals``) and their weights' sum. A value is in the play's points
    (mine minus theirs over what was searched) or, when ``in_chances``, ``WIN x (2p - 1)`` for a
    chance ``p`` to win. ``mixed``: near the end without the table, where a value mixes points with
    ``+-WIN`` for a game decided, so a difference of two is neither."""

    totals: dict[int, float]
    weight: float
    cards: dict[int, Card]
    in_chances: bool
    mixed: bool

    def best(self) -> Card:
        return self.cards[max(self.totals, key=lambda r: (self.totals[r], -r))]

    def value(self, rank: int) -> float:
        return self.totals[rank] / self.weight


def search_play(sit: PegSituation, rng: random.Random, by_chances: bool = False) -> Card:
    """The expert's card: best average over the opponent's possible hands of the minimax value.

    ``by_chances``: value the end of the play by the chance to win (``play_end_chances``) rather than by
    points (and, near the end, a guessed show)."""
    playable = sit.playable()
    distinct = {c.rank: c for c in sorted(playable, key=lambda c: c.index)}
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    return search_values(sit, rng, by_chances).best()


def search_values(sit: PegSituation, rng: random.Random, by_chances: bool = False) -> CardValues:
    """Every playable card's value by the expert's search (``search_play`` plays the best)."""
    playable = sit.playable()
    distinct = {c.rank: c for c in sorted(playable, key=lambda c: c.index)}
    me_all = tuple(sorted(c.rank for c in sit.hand))
    series = tuple(c.rank for c in sit.series)
    endgame = endgame_matters(sit)
    chances = None
    if by_chances and play_end_chances.applies(sit.target, sit.peg_out_zone):
        chances = play_end_chances.LeafChances(sit.target, sit.i_am_dealer)
    # In chances every line carries the real scores; in points only near the end, where the needs
    # decide who wins.
    track = endgame or chances is not None
    totals = dict.fromkeys(distinct, 0.0)
    need_me = sit.target - sit.my_score if track else FAR
    need_opp = sit.target - sit.opp_score if track else FAR
    nodes = 0
    cache: dict[tuple[int, ...], dict[int, float]] = {}
    memo: dict = {}
    least, most, budget = MIN_SAMPLES, MAX_SAMPLES, NODE_BUDGET
    if chances is not None and endgame:
        least, most, budget = END_MIN_SAMPLES, END_MAX_SAMPLES, END_NODE_BUDGET
    exact, hands = _opponent_hands(sit, rng)
    weight_sum = 0.0
    for samples, (weight, opp) in enumerate(hands, 1):
        if sit.opp_history:
            weight *= _history_likelihood(sit, opp)
        values = cache.get(opp)
        if values is None:
            solver = _Solver(sit, _opp_show(sit, opp) if track else None, memo, track, chances, endgame)
            values = cache[opp] = {}
            for r in distinct:
                i = me_all.index(r)
                rest = me_all[:i] + me_all[i + 1 :]
                values[r] = solver.play(rest, opp, series, sit.count, r, _replies(series)[r], True, False,
                                        sit.opp_gone, need_me, need_opp, 0.0, -WIN - 1, WIN + 1)
            nodes += solver.nodes
        weight_sum += weight
        for r in distinct:
            totals[r] += weight * values[r]
        # Stop sampling once the work budget is spent (a node count, not a clock, so the choice
        # is reproducible); exact enumerations always run to the end.
        if not exact and (samples >= most or (samples >= least and nodes >= budget)):
            break
    return CardValues(totals, weight_sum or 1.0, distinct, chances is not None, endgame and chances is None)
