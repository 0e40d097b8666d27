"""The counting trainer's hands: five levels from fifteens and pairs to the 29 hand, the level a
player's record earns, and the deal of a level from a seed (the same seed and number, the same
hand, so a reload shows the hand the server is waiting for)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.cards import DECK, JACK, SUITS, Card
from games.engine.scoring import ShowScore, score_hand

# Three right in a row take a player up a level and a miss one down; a steady counter has a floor
# from their accuracy over enough hands, so one slip does not send them back to the start.
STEP = 3
FLOORS = ((0.9, 3), (0.75, 2))  # (accuracy at least, level at least)
FLOOR_AFTER = 10  # hands counted before the accuracy sets a floor
CRIB_CHANCE = 0.25
TRIES = 5000


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    about: str
    fits: Callable[[ShowScore], bool]


def _plain(s: ShowScore) -> bool:
    return not s.runs and s.flush is None and s.nobs is None and s.total >= 2


def _one_run(s: ShowScore) -> bool:
    return len(s.runs) == 1 and s.flush is None and s.nobs is None


def _runs_with_pairs(s: ShowScore) -> bool:
    return len(s.runs) >= 2 and s.flush is None


def _suits_or_nobs(s: ShowScore) -> bool:
    four_suited = len({c.suit for c in s.hand}) == 1
    return four_suited or s.nobs is not None


def _big(s: ShowScore) -> bool:
    return s.total >= 16


LEVELS = (
    Level(1, "Fifteens and pairs", "Fifteens and pairs, no runs.", _plain),
    Level(2, "Runs", "A run of three or more, with fifteens and pairs.", _one_run),
    Level(3, "Runs with pairs", "Double and triple runs: a pair inside a run counts the run twice.",
          _runs_with_pairs),
    Level(4, "Flushes and nobs", "Four of a suit, the starter's suit, his nobs, and cribs, where only a "
          "five-card flush counts.", _suits_or_nobs),
    Level(5, "Big hands", "Sixteen and up, and now and then the 29 hand.", _big),
)
TOP = len(LEVELS)


def level_of(number: int) -> Level:
    return LEVELS[max(1, min(TOP, number)) - 1]


def next_level(level: int, *, right: bool, streak: int, counted: int, right_count: int) -> int:
    """The level of the next hand after a count at ``level``: one up when a right count makes
    ``STEP`` in a row (``streak``, this count included), one down on a miss, and never below the
    floor the accuracy (``right_count`` of ``counted``) sets once ``FLOOR_AFTER`` hands are counted.

    >>> next_level(1, right=True, streak=2, counted=2, right_count=2)
    1
    >>> next_level(1, right=True, streak=3, counted=3, right_count=3)
    2
    >>> next_level(4, right=False, streak=0, counted=9, right_count=8)
    3
    >>> next_level(3, right=False, streak=0, counted=20, right_count=19)
    3
    >>> next_level(5, right=True, streak=30, counted=30, right_count=30)
    5
    """
    if right:
        level += streak > 0 and streak % STEP == 0
    else:
        level -= 1
    if counted >= FLOOR_AFTER:
        accuracy = right_count / counted
        level = max([level] + [floor for least, floor in FLOORS if accuracy >= least])
    return max(1, min(TOP, level))


@dataclass(frozen=True)
class Deal:
    hand: tuple[Card, ...]
    starter: Card
    crib: bool

    @property
    def score(self) -> ShowScore:
        return score_hand(self.hand, self.starter, crib=self.crib)

    @property
    def four_suited(self) -> bool:
        return len({c.suit for c in self.hand}) == 1


def _twenty_nine(rng: random.Random) -> Deal:
    suit = rng.choice(SUITS)
    hand = [Card(5, s) for s in SUITS if s != suit] + [Card(JACK, suit)]
    rng.shuffle(hand)
    return Deal(tuple(hand), Card(5, suit), rng.random() < CRIB_CHANCE)


def _suited(rng: random.Random) -> Deal:
    """Four of one suit; the starter of that suit about one time in four, as a deal would have it.
    Half of these are cribs, where the starter decides whether there is a flush at all."""
    suit = rng.choice(SUITS)
    hand = tuple(Card(rank, suit) for rank in rng.sample(range(1, 14), 4))
    rest = [c for c in DECK if c not in hand]
    return Deal(hand, rng.choice(rest), rng.random() < 0.5)


def _random(rng: random.Random) -> Deal:
    cards = rng.sample(DECK, 5)
    return Deal(tuple(cards[:4]), cards[4], rng.random() < CRIB_CHANCE)


def deal(seed: str, number: int, level: int) -> Deal:
    """Hand ``number`` of a player's practice at ``level``, fixed by ``seed``.

    >>> deal("s", 1, 4) == deal("s", 1, 4), deal("s", 1, 4) == deal("s", 2, 4)
    (True, False)
    >>> all(LEVELS[n - 1].fits(deal("s", 1, n).score) for n in range(1, TOP + 1))
    True
    """
    rng = random.Random(f"{seed}:{number}:{level}")
    fits = level_of(level).fits
    if level >= TOP and rng.random() < 0.2:
        return _twenty_nine(rng)
    special = _suited if level == 4 and rng.random() < 0.5 else _random
    for _ in range(TRIES):
        dealt = special(rng)
        if fits(dealt.score):
            return dealt
    return dealt  # not reached in practice: each level fits a few hands in a hundred at worst
