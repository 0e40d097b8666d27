"""What to lay away: the exact expected value of each of the 15 ways to split six cards.

For each split, *expected hand* is the average show of the kept four over the 46 starters the
player cannot see, and *expected crib* the average crib the two laid away cards make with every
pair of cards the opponent could lay away and every starter left (1,035 pairs x 44 starters =
45,540 cribs). The crib counts for the player when they deal and against them when the opponent
deals; *net* is the sum. Everything is exact, not sampled: the rank part comes from the tables in
``ranks.py`` and flushes and nobs are counted by suit below, so a full table takes a few ms.

Whose cards go with mine into the crib: by default (``opponent_model="expert"``) each pair of
unseen cards is weighted by how often a good player lays away those two ranks in that seat
(``throw_model``: a pone almost never gives away two fives, a dealer often throws a pair), which
is closer to real cribs than ``"uniform"`` (every pair equally likely). In computer-vs-computer
play the two models score the same within noise (-0.03 +- 0.04 points a deal); the weighted one
is kept because its crib figures, shown to players as hints, are the more realistic.

>>> from games.engine.cards import parse_cards
>>> best = discard_table(parse_cards("5H 5C JD 6S KC 2D"), is_dealer=True)[0]
>>> format_cards(best.kept), format_cards(best.laid_away)
('5H 5C JD KC', '6S 2D')
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from games.engine.cards import JACK, SUITS, Card, format_cards

from .ranks import PRIMES, crib_vector, rank_key, score5, triple_weights
from .throw_model import PairFactor, throw_factor

STARTERS = 46  # 52 minus the six cards in hand


@dataclass(frozen=True)
class DiscardOption:
    """One way to lay away two of six cards, with its expectations (points, per deal)."""

    kept: tuple[Card, ...]
    laid_away: tuple[Card, ...]
    expected_hand: float
    expected_crib: float  # positive for the player's own crib, negative for the opponent's
    net: float

    def __str__(self) -> str:
        return (
            f"keep {format_cards(self.kept)}, lay away {format_cards(self.laid_away)}: "
            f"hand {self.expected_hand:.2f} crib {self.expected_crib:+.2f} net {self.net:.2f}"
        )


class DiscardAnalysis(NamedTuple):
    """After-game verdict on one discard: the best split, the one chosen, and the expected cost."""

    best: DiscardOption
    chosen: DiscardOption
    loss: float  # best.net - chosen.net, never negative; 0 when the best was chosen


def _suit_counts(cards) -> dict[str, int]:
    counts = dict.fromkeys(SUITS, 0)
    for c in cards:
        counts[c.suit] += 1
    return counts


def _unseen(hand6) -> tuple[list[int], dict[str, int], list[Card]]:
    """Unseen cards by rank (index 1..13) and by suit, and the unseen cards themselves."""
    held = set(hand6)
    cards = [Card(r, s) for s in SUITS for r in range(1, 14) if Card(r, s) not in held]
    ranks = [0] + [4] * 13
    for c in hand6:
        ranks[c.rank] -= 1
    suits = {s: 13 - n for s, n in _suit_counts(hand6).items()}
    return ranks, suits, cards


def expected_hand(kept, hand6) -> float:
    """Average show of ``kept`` (four cards) over the 46 starters not among ``hand6``."""
    ranks, suits, _ = _unseen(hand6)
    return _hand_ways(kept, ranks, suits) / STARTERS


def _hand_ways(kept, ranks: list[int], suits: dict[str, int]) -> int:
    """Total show of ``kept`` summed over the 46 possible starters (divide by 46 for the mean)."""
    table = score5()
    key = rank_key(c.rank for c in kept)
    total = sum(n * table[key * PRIMES[r]] for r, n in enumerate(ranks) if n)
    first_suit = kept[0].suit
    if all(c.suit == first_suit for c in kept):
        total += 4 * STARTERS + suits[first_suit]  # 4 always, 1 more when the starter matches
    total += sum(suits[c.suit] for c in kept if c.rank == JACK)  # nobs: starter of the jack's suit
    return total


class _CribContext:
    """Per-hand sums for the crib expectation, shared by the 15 splits."""

    def __init__(self, hand6, factor: PairFactor | None) -> None:
        ranks, suits, cards = _unseen(hand6)
        self.suits = suits
        self.weights = triple_weights(ranks, factor)

        def f(a: int, b: int) -> float:
            return factor[(a, b) if a <= b else (b, a)] if factor else 1

        # One pass over the 1,035 pairs the opponent could lay away gathers the suit sums.
        pair_total = 0.0
        self.flush = dict.fromkeys(SUITS, 0.0)  # pairs of suit s, times starters also of suit s
        suited = dict.fromkeys(SUITS, 0.0)  # sum of w * (cards of suit s in the pair)
        opp_nobs = 0.0
        for a, b in combinations(cards, 2):
            w = f(a.rank, b.rank)
            pair_total += w
            suited[a.suit] += w
            suited[b.suit] += w
            if a.suit == b.suit:
                self.flush[a.suit] += w * (suits[a.suit] - 2)
            for jack, other in ((a, b), (b, a)):
                if jack.rank == JACK:  # the opponent's jack: starter of its suit, not the other card
                    opp_nobs += w * (suits[jack.suit] - 1 - (other.suit == jack.suit))
        self.total = pair_total * (STARTERS - 2)
        # My own jack laid away scores when the starter is one of the unseen cards of its suit that
        # the opponent did not lay away.
        self.my_nobs = {s: suits[s] * pair_total - suited[s] for s in SUITS}
        self.opp_nobs = opp_nobs

    def expected(self, laid_away) -> float:
        a, b = sorted(c.rank for c in laid_away)
        ways = sum(w * p for w, p in zip(self.weights, crib_vector(a, b), strict=True) if w)
        return (ways + self._suit_ways(laid_away)) / self.total

    def odds(self, laid_away) -> dict[float, float]:
        """The crib's points and their chances: the rank part exactly (fifteens, pairs, runs over
        every pair the other side may lay away and every starter), the flush and nobs at their
        average on top of each."""
        a, b = sorted(c.rank for c in laid_away)
        ways: dict[int, float] = {}
        for w, p in zip(self.weights, crib_vector(a, b), strict=True):
            if w:
                ways[p] = ways.get(p, 0.0) + w
        extra = self._suit_ways(laid_away) / self.total
        return {p + extra: w / self.total for p, w in ways.items()}

    def _suit_ways(self, laid_away) -> float:
        ways = 0.0
        c1, c2 = laid_away
        if c1.suit == c2.suit:
            ways += 5 * self.flush[c1.suit]  # only a five-card flush counts in the crib
        ways += sum(self.my_nobs[c.suit] for c in laid_away if c.rank == JACK)
        ways += self.opp_nobs
        return ways


def _splits(hand6):
    hand6 = tuple(hand6)
    if len(hand6) != 6 or len(set(hand6)) != 6:
        raise ValueError("a discard needs six different cards")
    for laid_idx in combinations(range(6), 2):
        laid = tuple(hand6[i] for i in laid_idx)
        kept = tuple(c for i, c in enumerate(hand6) if i not in laid_idx)
        yield kept, laid


def discard_table(hand6, is_dealer: bool, *, opponent_model: str = "expert") -> list[DiscardOption]:
    """All 15 ways to lay away two of ``hand6``, best net expectation first.

    ``opponent_model``: ``"expert"`` weights the opponent's two crib cards by how often a good
    player lays away those ranks (see ``throw_model``); ``"uniform"`` treats every pair of unseen
    cards as equally likely.
    """
    if opponent_model not in ("expert", "uniform"):
        raise ValueError("opponent_model is 'expert' or 'uniform'")
    ranks, suits, _ = _unseen(hand6)
    factor = throw_factor(opponent_is_dealer=not is_dealer) if opponent_model == "expert" else None
    crib = _CribContext(hand6, factor)
    sign = 1 if is_dealer else -1
    cache: dict[object, float] = {}
    options = []
    for kept, laid in _splits(hand6):
        hand_ev = _hand_ways(kept, ranks, suits) / STARTERS
        # Splits laying away the same ranks share a crib unless a flush or nobs makes suits matter.
        suited = laid[0].suit == laid[1].suit or any(c.rank == JACK for c in laid)
        key = frozenset(laid) if suited else tuple(sorted(c.rank for c in laid))
        crib_ev = cache.get(key)
        if crib_ev is None:
            crib_ev = cache[key] = crib.expected(laid)
        options.append(DiscardOption(kept, laid, hand_ev, sign * crib_ev, hand_ev + sign * crib_ev))
    return sorted(options, key=_order)


class CribOdds:
    """The points a crib makes and their chances, for each pair ``hand6`` may lay away (the other
    side's two cards weighted as ``discard_table`` weights them): its mean is the expected crib."""

    def __init__(self, hand6, is_dealer: bool) -> None:
        self._context = _CribContext(hand6, throw_factor(opponent_is_dealer=not is_dealer))

    def odds(self, laid_away) -> dict[float, float]:
        return self._context.odds(laid_away)


def hand_table(hand6) -> list[DiscardOption]:
    """The 15 splits ranked by the expected hand alone (crib ignored): the standard player's view."""
    ranks, suits, _ = _unseen(hand6)
    options = []
    for kept, laid in _splits(hand6):
        hand_ev = _hand_ways(kept, ranks, suits) / STARTERS
        options.append(DiscardOption(kept, laid, hand_ev, 0.0, hand_ev))
    return sorted(options, key=_order)


def _order(option: DiscardOption):
    # Ties (common: suits rarely matter) are broken by the cards, so the order is reproducible.
    return (-round(option.net, 9), -round(option.expected_hand, 9), [c.index for c in option.laid_away])


def analyse_discard(hand6, discarded, is_dealer: bool, *, opponent_model: str = "expert") -> DiscardAnalysis:
    """Compare a discard with the best one: ``(best, chosen, expected points lost)``.

    >>> from games.engine.cards import parse_cards
    >>> hand = parse_cards("5H 5C JD 6S KC 2D")
    >>> a = analyse_discard(hand, parse_cards("5H 5C"), is_dealer=False)
    >>> a.loss > 0, a.chosen.laid_away == parse_cards("5H 5C")
    (True, True)
    """
    table = discard_table(hand6, is_dealer, opponent_model=opponent_model)
    wanted = frozenset(discarded)
    if len(wanted) != 2 or not wanted <= set(hand6):
        raise ValueError("the discard must be two of the six cards")
    chosen = next(o for o in table if frozenset(o.laid_away) == wanted)
    best = table[0]
    return DiscardAnalysis(best, chosen, max(0.0, best.net - chosen.net))
