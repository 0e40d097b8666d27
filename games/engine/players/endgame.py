"""Near the end of a game: lay away for the best chance to win, not the most points.

Far from the target the expert keeps the split with the best expected net (``discard_table``).
When either side could reach the target this deal (within ``REACH`` points), the points that
matter are the ones that get there first, and the order of counting decides it: pone's hand, then
the dealer's hand, then the crib. So each split gets

    utility = WIN x P(I count out) + net

where ``P(I count out)`` is exact over the 46 starters for the kept four (the hand scores of
each starter), with the rest of my deal's points taken at their average: pegging (``PEG_AVERAGE``
for my role) plus, for the dealer, the expected crib of the split. ``WIN`` = 100 makes one percent
of winning chance worth one point of expectation, so the expectation only breaks ties between
splits that win equally often (and rules alone when nobody can get there).

Two cases change the weights:

* In the peg-out zone (house rule) my show will score nothing, so only pegging and, as pone,
  keeping the opponent's crib small matter: utility = ``peg_potential`` + signed crib.
* As dealer, when the pone needs no more than ``OPP_CLOSE`` (what a pone usually pegs and
  counts), the pone will most likely count out before my show; then my hand and crib are worth
  little and the play is my chance, so ``peg_potential`` is added with weight ``PEG_WEIGHT``.

``peg_potential`` is a crude, documented proxy for how well four cards peg: pairs (a pair royal
waits for the opponent's pair) and low cards (they get the go and the 31 late in a series).
"""

from __future__ import annotations

from itertools import combinations

from games.engine.cards import DECK
from games.engine.scoring import hand_total

from .discard import DiscardOption

REACH = 32  # from this far out a deal (pegging plus a good hand and crib) can end the game
WIN = 100.0
PEG_AVERAGE = {True: 3.6, False: 2.1}  # points pegged in a deal, dealer / pone (expert vs expert, 300 deals)
OPP_CLOSE = 10
PEG_WEIGHT = 3.0


def starter_scores(kept, hand6) -> list[int]:
    """The show of ``kept`` with each of the 46 starters not among ``hand6``."""
    held = set(hand6)
    return [hand_total(kept, s) for s in DECK if s not in held]


def peg_potential(kept) -> float:
    """Pairs and low cards: a rough measure of how many points four cards can peg."""
    pairs = sum(1 for a, b in combinations(kept, 2) if a.rank == b.rank)
    low = sum(1 for c in kept if c.value <= 4)
    return 2.0 * pairs + 1.0 * low


def in_endgame(my_score: int, opp_score: int, target: int) -> bool:
    return target - max(my_score, opp_score) <= REACH


def endgame_choice(
    table: list[DiscardOption], hand6, *, is_dealer: bool, my_score: int, opp_score: int,
    target: int, peg_out_zone: int = 0,
) -> DiscardOption:
    """The split with the best chance of winning; ``table`` is ``discard_table``'s answer."""
    if not in_endgame(my_score, opp_score, target):
        return table[0]
    my_need = target - my_score
    opp_need = target - opp_score

    def utility(option: DiscardOption) -> float:
        if peg_out_zone and my_need <= peg_out_zone:
            # My show scores nothing: peg, and as pone keep the dealer's crib down.
            return peg_potential(option.kept) + (0.0 if is_dealer else option.expected_crib)
        extra = PEG_AVERAGE[is_dealer] + (option.expected_crib if is_dealer else 0.0)
        scores = starter_scores(option.kept, hand6)
        p_out = sum(1 for s in scores if s + extra >= my_need) / len(scores)
        value = WIN * p_out + option.net
        if is_dealer and opp_need <= OPP_CLOSE:
            value += PEG_WEIGHT * peg_potential(option.kept)
        return value

    return max(table, key=utility)  # max keeps the first of equals: the table's order
