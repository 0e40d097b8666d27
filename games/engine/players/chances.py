"""A lay-away valued in winning chances: what each split of six cards leaves a two-player side's
chance to win the game, at the score it is played.

The deal is walked as ``winprob`` walks it, with the cards in hand known: the play (both sides'
pegging, from the measured deals, with who pegs out first), then pone's show, then the dealer's
show, and after the deal the table's chance at the next deal's start. My show is exact over the 46
starters for the kept four; a crib counts at the split's expected crib (``discard_table``); the
other side's hand comes from what an expert keeps in its seat (the measured deals).

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

from .discard import DiscardOption, discard_table


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


def discard_chances(hand6, is_dealer: bool, my_score: int, their_score: int, target: int = 121,
                    ) -> list[SplitChance]:
    """Every split of ``hand6`` with its chance to win, best first (expected points break ties)."""
    options = discard_table(hand6, is_dealer)
    odds = deal_odds_measured()
    n = odds.samples
    table = _table(target)

    def next_deal(mine: int, theirs: int, i_deal: bool) -> float:
        if mine >= target:
            return 1.0
        if theirs >= target:
            return 0.0
        return table[mine][theirs] / SCALE if i_deal else 1.0 - table[theirs][mine] / SCALE

    need_me, need_them = target - my_score, target - their_score
    need_d, need_p = (need_me, need_them) if is_dealer else (need_them, need_me)
    outs = peg_out(odds, need_d, need_p)
    pegged_out = outs[0 if is_dealer else 1] / n
    # After the play: where the two scores stand, for the deals where nobody pegged out.
    played: dict[tuple[int, int], float] = {}
    for (d, p), c in odds.peg_totals.items():
        if d < need_d and p < need_p:
            mine, theirs = (my_score + d, their_score + p) if is_dealer else (my_score + p, their_score + d)
            played[(mine, theirs)] = played.get((mine, theirs), 0.0) + c / n
    their_hand = odds.pone_show if is_dealer else odds.dealer_hand
    total = sum(their_hand.values())
    their_hand = {k: c / total for k, c in their_hand.items()}

    if is_dealer:
        # The pone counts first: where the scores stand before my show, for every pone's hand.
        before_mine: dict[tuple[int, int], float] = {}
        for (mine, theirs), q in played.items():
            for h, qh in their_hand.items():
                if theirs + h < target:
                    before_mine[(mine, theirs + h)] = before_mine.get((mine, theirs + h), 0.0) + q * qh
    else:
        after_mine: dict[tuple[int, int], float] = {}

        def their_show(mine: int, theirs: int) -> float:
            """My chance once I have counted and stand at ``mine``, the dealer at ``theirs`` with its
            crib's expectation already added: the dealer's hand, then the next deal (mine)."""
            key = (mine, theirs)
            if key not in after_mine:
                after_mine[key] = sum(qh * next_deal(mine, theirs + h, True) for h, qh in their_hand.items())
            return after_mine[key]

    out = []
    starters = [s for s in DECK if s not in set(hand6)]
    for option in options:
        shows: dict[float, float] = {}
        for s in starters:
            x = hand_total(option.kept, s)
            shows[x] = shows.get(x, 0.0) + 1 / len(starters)
        win = pegged_out
        if is_dealer:
            mine_shown = _spread({x + option.expected_crib: q for x, q in shows.items()})
            for (mine, theirs), q in before_mine.items():
                win += q * sum(qx * next_deal(mine + x, theirs, False) for x, qx in mine_shown.items())
        else:
            crib = _spread({-option.expected_crib: 1.0})
            for (mine, theirs), q in played.items():
                for x, qx in shows.items():
                    if mine + x >= target:
                        win += q * qx
                    else:
                        win += q * qx * sum(qc * their_show(mine + x, theirs + c) for c, qc in crib.items())
        out.append(SplitChance(option, win))
    out.sort(key=lambda s: (-round(s.win, 6), -s.option.net))
    return out
