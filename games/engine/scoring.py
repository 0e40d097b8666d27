"""Show and pegging scores, with full breakdowns (RULES.md, "The play" and "The show").

The show:

>>> from games.engine.cards import parse_card, parse_cards
>>> best = score_hand(parse_cards("5H 5C 5S JD"), parse_card("5D"))
>>> best.total, len(best.fifteens), best.pairs[0].text, best.nobs.text
(29, 8, 'Double pair royal for 12', 'His nobs for 1')
>>> [g.text for g in score_hand(parse_cards("3H 3S 4D 4C"), parse_card("5H")).runs]
['Run of 3 for 3', 'Run of 3 for 3', 'Run of 3 for 3', 'Run of 3 for 3']
>>> hand_total(parse_cards("7H 7S 7D 8C"), parse_card("9H"))
21

Pegging scores the card just laid, given the cards of the current series in order:

>>> peg = score_pegging(parse_cards("7H 5S 6D"))
>>> peg.total, [g.text for g in peg.parts]
(3, ['Run of 3 for 3'])
>>> score_pegging(parse_cards("7H 5S 6D 4C")).total
4

Speed: :func:`hand_total` is the fast path (fifteens, pairs and runs depend only on the five ranks,
so they are read from a table of all 6,175 five-rank multisets built at import; flush and nobs are
a few suit compares). :func:`score_hand` validates, takes its ``total`` from the same fast path and
builds the breakdown lazily, by direct enumeration, the first time a breakdown attribute is read.
Tests check that the two always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, product

from games.engine.cards import JACK, Card

# The fast path lives beside the breakdown; its names are this module's API too.
from games.engine.hand_totals import (  # noqa: F401
    PAIR_POINTS,
    RANK_POINTS_TABLE,
    hand_total,
    rank_key,
    rank_points,
)

FIFTEEN = "fifteen"
THIRTY_ONE = "thirty_one"
PAIR = "pair"
RUN = "run"
FLUSH = "flush"
NOBS = "nobs"
SHOW_KINDS = (FIFTEEN, PAIR, RUN, FLUSH, NOBS)
PEG_KINDS = (FIFTEEN, THIRTY_ONE, PAIR, RUN)

PAIR_TEXTS = {2: "Pair for 2", 3: "Pair royal for 6", 4: "Double pair royal for 12"}


def score_text(kind: str, points: int) -> str:
    """What a scoring item of ``kind`` worth ``points`` says (``ScoreGroup.text`` says the same).

    >>> score_text("pair", 6), score_text("run", 4), score_text("thirty_one", 2), score_text("flush", 5)
    ('Pair royal for 6', 'Run of 4 for 4', '31 for 2', 'Flush for 5')
    """
    if kind == PAIR:
        return PAIR_TEXTS[PAIR_POINTS.index(points)]
    if kind == RUN:
        return f"Run of {points} for {points}"
    if kind == FLUSH:
        return f"Flush for {points}"
    return {FIFTEEN: "Fifteen for 2", THIRTY_ONE: "31 for 2", NOBS: "His nobs for 1"}[kind]


@dataclass(frozen=True, slots=True)
class ScoreGroup:
    """One scoring item: what scored (``kind``), the cards that made it, the points, and a text."""

    kind: str
    cards: tuple[Card, ...]
    points: int
    text: str


# --- the show ---------------------------------------------------------------------------------


def _check_show(hand: Iterable[Card], starter: Card) -> tuple[Card, ...]:
    # Unrolled on purpose: this runs on every score_hand call, and hashing (rank, suit) tuples
    # in C is several times faster than hashing the Card dataclasses.
    cards = tuple(hand)
    if len(cards) != 4:
        raise ValueError(f"a hand to score has 4 cards, not {len(cards)}")
    a, b, c, d = cards
    if not (
        isinstance(a, Card)
        and isinstance(b, Card)
        and isinstance(c, Card)
        and isinstance(d, Card)
        and isinstance(starter, Card)
    ):
        bad = next(x for x in (*cards, starter) if not isinstance(x, Card))
        raise ValueError(f"not a card: {bad!r}")
    distinct = {(a.rank, a.suit), (b.rank, b.suit), (c.rank, c.suit), (d.rank, d.suit)}
    distinct.add((starter.rank, starter.suit))
    if len(distinct) != 5:
        raise ValueError("the hand and starter must be 5 different cards")
    return cards


@dataclass(frozen=True)
class ShowScore:
    """The score of a hand or crib in the show. ``total`` is computed at once; the groups
    (``fifteens``, ``pairs``, ``runs``: tuples; ``flush``, ``nobs``: a group or None) are
    enumerated the first time they are read.

    Card order inside groups: fifteens, pairs and flush follow the hand order then the starter;
    a run lists its cards from low to high.
    """

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return (*self.hand, self.starter)

    @cached_property
    def fifteens(self) -> tuple[ScoreGroup, ...]:
        cards = self.cards
        return tuple(
            ScoreGroup(FIFTEEN, combo, 2, "Fifteen for 2")
            for size in range(2, 6)
            for combo in combinations(cards, size)
            if sum(card.value for card in combo) == 15
        )

    @cached_property
    def pairs(self) -> tuple[ScoreGroup, ...]:
        groups = []
        for rank in range(1, 14):
            same = tuple(card for card in self.cards if card.rank == rank)
            if len(same) >= 2:
                groups.append(ScoreGroup(PAIR, same, PAIR_POINTS[len(same)], PAIR_TEXTS[len(same)]))
        return tuple(groups)

    @cached_property
    def runs(self) -> tuple[ScoreGroup, ...]:
        by_rank: dict[int, list[Card]] = {}
        for card in self.cards:
            by_rank.setdefault(card.rank, []).append(card)
        groups: list[ScoreGroup] = []
        rank = 1
        while rank <= 13:
            start = rank
            while rank in by_rank:
                rank += 1
            length = rank - start
            if length >= 3:
                # Each way of picking one card per rank is a distinct run (double, triple runs...).
                for combo in product(*(by_rank[r] for r in range(start, rank))):
                    groups.append(ScoreGroup(RUN, combo, length, f"Run of {length} for {length}"))
            rank += 1
        return tuple(groups)

    @cached_property
    def flush(self) -> ScoreGroup | None:
        suit = self.hand[0].suit
        if any(card.suit != suit for card in self.hand):
            return None
        if self.starter.suit == suit:
            return ScoreGroup(FLUSH, self.cards, 5, "Flush for 5")
        if self.crib:  # a crib flush must include the starter
            return None
        return ScoreGroup(FLUSH, self.hand, 4, "Flush for 4")

    @cached_property
    def nobs(self) -> ScoreGroup | None:
        for card in self.hand:  # the starter itself never counts: a jack turned is his heels
            if card.rank == JACK and card.suit == self.starter.suit:
                return ScoreGroup(NOBS, (card,), 1, "His nobs for 1")
        return None

    @property
    def groups(self) -> tuple[ScoreGroup, ...]:
        """All groups: fifteens, pairs, runs, flush, nobs."""
        extra = tuple(g for g in (self.flush, self.nobs) if g is not None)
        return self.fifteens + self.pairs + self.runs + extra

    @property
    def by_kind(self) -> dict[str, int]:
        """Points per kind, every show kind present (0 if it did not score)."""
        points = dict.fromkeys(SHOW_KINDS, 0)
        for group in self.groups:
            points[group.kind] += group.points
        return points


_new = object.__new__


def score_hand(hand: Iterable[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Score 4 ``hand`` cards with the ``starter`` in the show; ``crib=True`` for the crib (only a
    five-card flush counts there). Raises ``ValueError`` unless there are 4 cards and all 5 differ.

    >>> from games.engine.cards import parse_card, parse_cards
    >>> s = score_hand(parse_cards("7H 7S 7D 8C"), parse_card("9H"))
    >>> s.total, s.by_kind
    (21, {'fifteen': 6, 'pair': 6, 'run': 9, 'flush': 0, 'nobs': 0})
    >>> score_hand(parse_cards("2H 4H 6H 8H"), parse_card("KS"), crib=True).total
    0
    """
    cards = _check_show(hand, starter)
    # Same as ShowScore(cards, starter, crib, total) without the frozen dataclass __init__'s four
    # object.__setattr__ calls, which cost as much as the scoring itself on this hot path.
    score = _new(ShowScore)
    fields = score.__dict__
    fields["hand"] = cards
    fields["starter"] = starter
    fields["crib"] = bool(crib)
    fields["total"] = hand_total(cards, starter, crib)
    return score


# --- pegging ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PegScore:
    """What the last card of a pegging series scores (go and last card are the game's business)."""

    count: int
    fifteen: int
    thirty_one: int
    pair: int
    run: int
    parts: tuple[ScoreGroup, ...]

    @property
    def total(self) -> int:
        return self.fifteen + self.thirty_one + self.pair + self.run


def _run_length(ranks: Sequence[int]) -> int:
    # The longest tail of k >= 3 distinct consecutive ranks; a shorter tail may fail where a longer
    # one succeeds (5-3-4-6 is a run of 4 but 3-4-6 is none), so every length is tried, longest first.
    for length in range(len(ranks), 2, -1):
        tail = ranks[-length:]
        if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            return length
    return 0


def _pair_length(ranks: Sequence[int]) -> int:
    last, n = ranks[-1], 1
    while n < len(ranks) and ranks[-1 - n] == last:
        n += 1
    return n


def pegging_total(series: Sequence[Card]) -> int:
    """Points for the last card of ``series`` without checks or breakdown: the fast path for
    simulations. Same rules as :func:`score_pegging`.

    >>> from games.engine.cards import parse_cards
    >>> pegging_total(parse_cards("5H 5S 5D"))
    8
    """
    ranks = [card.rank for card in series]
    count = sum(min(r, 10) for r in ranks)
    points = 2 if count in (15, 31) else 0
    points += PAIR_POINTS[_pair_length(ranks)]
    return points + _run_length(ranks)


def score_pegging(series: Iterable[Card]) -> PegScore:
    """Score the last card of ``series``: the cards laid since the count was last reset, in order,
    ending with the card just laid. Only those cards are considered.

    15: 2; 31: 2; the last card and the 1, 2 or 3 before it of the same rank: 2, 6 or 12; the
    longest tail of k >= 3 cards of k distinct consecutive ranks (any order): k.
    Raises ``ValueError`` for an empty series, repeated cards, or a count over 31.

    >>> from games.engine.cards import parse_cards
    >>> [g.text for g in score_pegging(parse_cards("TH 5S")).parts]
    ['Fifteen for 2']
    >>> score_pegging(parse_cards("8H 7S 7D 6C")).total
    0
    >>> p = score_pegging(parse_cards("3H 4S 5D 6C 3C"))
    >>> p.run, p.count
    (4, 21)
    >>> [g.text for g in score_pegging(parse_cards("9H 8S 8D")).parts]
    ['Pair for 2']
    >>> score_pegging(parse_cards("TH KH")).parts  # ranks pair, not count values
    ()
    >>> score_pegging(parse_cards("KH QH JS 5D"))
    Traceback (most recent call last):
    ...
    ValueError: count 35 is over 31
    """
    cards = tuple(series)
    if not cards:
        raise ValueError("an empty series scores nothing: no card was laid")
    for card in cards:
        if not isinstance(card, Card):
            raise ValueError(f"not a card: {card!r}")
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears twice in the series")
    count = sum(card.value for card in cards)
    if count > 31:
        raise ValueError(f"count {count} is over 31")
    ranks = [card.rank for card in cards]
    parts: list[ScoreGroup] = []
    fifteen = 2 if count == 15 else 0
    if fifteen:
        parts.append(ScoreGroup(FIFTEEN, cards, 2, "Fifteen for 2"))
    thirty_one = 2 if count == 31 else 0
    if thirty_one:
        parts.append(ScoreGroup(THIRTY_ONE, cards, 2, "31 for 2"))
    same = _pair_length(ranks)
    pair = PAIR_POINTS[same]
    if pair:
        parts.append(ScoreGroup(PAIR, cards[-same:], pair, PAIR_TEXTS[same]))
    run = _run_length(ranks)
    if run:
        parts.append(ScoreGroup(RUN, cards[-run:], run, f"Run of {run} for {run}"))
    return PegScore(count, fifteen, thirty_one, pair, run, tuple(parts))
