"""A lay-away valued in winning chances: what each split of six cards leaves a two-player side's
chance to win the game, at the score it is played.

The deal is walked as ``winprob`` walks it, with the cards in hand known: the play (both sides'
pegging, from the measured deals, with who pegs out first), then pone's show, then the dealer's
show, and after the deal the table's chance at the next deal's start. My show is exact over the 46
starters for the kept four; a crib counts as the cribs the split's two cards make with every pair
the other side may lay away and every starter (``CribOdds``, whose mean is ``discard_table``'s
expected crib), so a crib that may count a dealer out is worth its chance of doing so; the other
side's hand comes from what an expert keeps in its seat (the measured deals).

With ``pegging`` (the expert), a kept four's play is shifted by what it makes and gives away
beyond the average four (``kept_four_pegging``, at ``PEG_WEIGHTS``): its points are added at the show, and
near the end the shift also lowers (or raises) the need each side pegs against, so a four that
pegs well is as likely to peg out first as its extra points make it.

Far from the target the splits rank almost as their expected points do; near it, a split that
makes the count-out likely, or keeps the other side from it, moves up.

>>> from games.engine.cards import parse_cards, format_cards
>>> hand = parse_cards("5H 5C JD 6S KC 2D")
>>> early = discard_chances(hand, is_dealer=True, my_score=0, their_score=0)
>>> format_cards(early[0].option.laid_away), round(early[0].win, 2)
('6S 2D', 0.63)
>>> late = discard_chances(hand, is_dealer=False, my_score=118, their_score=100)
>>> late[0].win > 0.95
True
"""

from __future__ import annotations

from dataclasses import dataclass
from math import floor

from games.engine.cards import DECK
from games.engine.scoring import hand_total
from games.engine.winprob import SCALE, _table, deal_odds_measured, peg_out

from .discard import CribOdds, DiscardOption, discard_table
from .kept_four_pegging import averages as peg_averages
from .kept_four_pegging import pegging as pegging_of

# A dealer needing more than this all but never reaches the target in one deal: of the measured
# deals none pegged more than 19, and 0.24% showed 30 or more in hand and crib.
CRIB_REACH = 45

# How a kept four's table shift shows in the play as the expert and the reference play it (both
# search; the table was measured with greedy play): for each role, the shift of my points and of the
# other side's from the four's (made, given) shifts, by regression over 32,000 deals
# (``bench.peg_calibration``). A dealer's four makes more than the table says and gives away less;
# a pone's four shows about three quarters of its made and half of its given.
PEG_WEIGHTS = {
    True: ((1.22, 0.16), (0.10, 0.70)),
    False: ((0.76, -0.10), (-0.08, 0.52)),
}


@dataclass(frozen=True)
class SplitChance:
    option: DiscardOption
    win: float  # the chance to win the game after laying this split away


def _spread(values: dict[float, float]) -> dict[int, float]:
    """A distribution over possibly fractional points, each split between its two whole neighbours."""
    out: dict[int, float] = {}
    for v, q in values.items():
        low = floor(v)
        frac = v - low
        out[low] = out.get(low, 0.0) + q * (1 - frac)
        if frac:
            out[low + 1] = out.get(low + 1, 0.0) + q * frac
    return out


class _PlayWalk:
    """The play at given needs: the share of deals where each side pegs out first, and where the
    scores stand after the others. What follows my show depends on a split only through the points
    I add (``x``) and those the other side adds beside its hand (``g``: the crib for a dealer, the
    play's shift for a pone), so each (x, g) is summed over the scores once and shared by every
    split played at these needs."""

    def __init__(self, odds, need_d: int, need_p: int, scores: tuple[int, int], is_dealer: bool,
                 show_from) -> None:
        n = odds.samples
        self._out = [c / n for c in peg_out(odds, need_d, need_p)]
        # Where (my score, theirs) stand after the play, for the deals where nobody pegged out.
        mine0, theirs0 = scores
        self.played: dict[tuple[int, int], float] = {}
        for (d, p), c in odds.peg_totals.items():
            if d < need_d and p < need_p:
                key = (mine0 + d, theirs0 + p) if is_dealer else (mine0 + p, theirs0 + d)
                self.played[key] = self.played.get(key, 0.0) + c / n
        self._show_from = show_from
        self._grouped: dict[tuple[int, int], float] = {}

    def pegged_out(self, is_dealer: bool) -> float:
        return self._out[0 if is_dealer else 1]

    def settled(self, x: int, g: int) -> float:
        found = self._grouped.get((x, g))
        if found is None:
            found = self._grouped[(x, g)] = sum(q * self._show_from(mine + x, theirs + g)
                                                for (mine, theirs), q in self.played.items())
        return found


def discard_chances(hand6, is_dealer: bool, my_score: int, their_score: int, target: int = 121,
                    pegging: bool = False) -> list[SplitChance]:
    """Every split of ``hand6`` with its chance to win, best first (expected points break ties).

    ``pegging``: shift the play's points by what the kept four makes and gives away in the play
    against the average four (``kept_four_pegging``), the expert's view; the hint shows the deal as measured.
    """
    options = discard_table(hand6, is_dealer)
    odds = deal_odds_measured()
    table = _table(target)

    def after(mine: int, theirs: int, i_deal: bool) -> float:
        """My chance once the deal is over (or decided) at these scores."""
        if mine >= target:
            return 1.0
        if theirs >= target:
            return 0.0
        return table[mine][theirs] / SCALE if i_deal else 1.0 - table[theirs][max(0, mine)] / SCALE

    need_me, need_them = target - my_score, target - their_score
    need_d, need_p = (need_me, need_them) if is_dealer else (need_them, need_me)
    their_hand = odds.pone_show if is_dealer else odds.dealer_hand
    total = sum(their_hand.values())
    their_hand = {k: c / total for k, c in their_hand.items()}

    if is_dealer:
        pone_shown: dict[tuple[int, int], float] = {}

        def show_from(mine: int, theirs: int) -> float:
            """My chance with my show still to come and already added (``mine``), the pone at
            ``theirs`` before its hand: the pone counts first, then my hand and crib, then the next deal."""
            key = (mine, theirs)
            if key not in pone_shown:
                pone_shown[key] = sum(qh * after(mine, theirs + h, False) for h, qh in their_hand.items()
                                      if theirs + h < target)
            return pone_shown[key]
    else:
        after_mine: dict[tuple[int, int], float] = {}

        def their_show(mine: int, theirs: int) -> float:
            """My chance once I have counted and stand at ``mine``, the dealer at ``theirs`` with its
            crib already added: the dealer's hand, then the next deal (mine)."""
            key = (mine, theirs)
            if key not in after_mine:
                after_mine[key] = sum(qh * after(mine, theirs + h, True) for h, qh in their_hand.items())
            return after_mine[key]

        def show_from(mine: int, theirs: int) -> float:
            return 1.0 if mine >= target else their_show(mine, theirs)

    walks: dict[tuple[int, int], _PlayWalk] = {}

    def walk(nd: int, np_: int) -> _PlayWalk:
        """The play when the dealer needs ``nd`` and the pone ``np_`` (needs out of the play's reach
        are all alike, so they share one walk)."""
        key = (min(nd, odds.max_peg + 1), min(np_, odds.max_peg + 1))
        if key not in walks:
            walks[key] = _PlayWalk(odds, *key, (my_score, their_score), is_dealer, show_from)
        return walks[key]

    out = []
    starters = [s for s in DECK if s not in set(hand6)]
    cribs = CribOdds(hand6, is_dealer) if need_d <= CRIB_REACH else None
    for option in options:
        made = given = 0.0
        if pegging:
            made, given = peg_shift(option.kept, is_dealer)
        # Only where the crib could count the dealer out does its spread matter; elsewhere the
        # next deal's chance is smooth in the points, and its mean serves at a third of the cost.
        crib = cribs.odds(option.laid_away) if cribs else {abs(option.expected_crib): 1.0}
        hands: dict[int, float] = {}
        for s in starters:
            h = hand_total(option.kept, s)
            hands[h] = hands.get(h, 0.0) + 1 / len(starters)
        if is_dealer:  # my hand and my crib count together, after the pone's hand
            both: dict[float, float] = {}
            for h, qh in hands.items():
                for c, qc in crib.items():
                    both[h + c + made] = both.get(h + c + made, 0.0) + qh * qc
            mine_shown = _spread(both)
            theirs = _spread({given: 1.0})
        else:
            mine_shown = _spread({h + made: qh for h, qh in hands.items()})
            theirs = _spread({given + c: qc for c, qc in crib.items()})
        # A four that pegs more than the average one reaches the target in the play more often: its
        # shift lowers the need it pegs against (split between the two whole needs around it).
        shift_d, shift_p = (made, given) if is_dealer else (given, made)
        win = 0.0
        for nd, qd in _spread({max(1.0, need_d - shift_d): 1.0}).items():
            for np_, qp in _spread({max(1.0, need_p - shift_p): 1.0}).items():
                play = walk(nd, np_)
                part = play.pegged_out(is_dealer)
                for x, qx in mine_shown.items():
                    part += qx * sum(qg * play.settled(x, g) for g, qg in theirs.items())
                win += qd * qp * part
        out.append(SplitChance(option, win))
    out.sort(key=lambda s: (-round(s.win, 6), -s.option.net))
    return out


def peg_shift(kept, is_dealer: bool) -> tuple[float, float]:
    """What ``kept`` adds to my pegging and to the other side's beyond the average four
    (``kept_four_pegging``), as the search plays it (``PEG_WEIGHTS``)."""
    made, given = pegging_of(kept, is_dealer)
    avg_made, avg_given = peg_averages()[is_dealer]
    (a, b), (c, d) = PEG_WEIGHTS[is_dealer]
    made, given = made - avg_made, given - avg_given
    return a * made + b * given, c * made + d * given
