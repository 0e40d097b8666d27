"""What one card laid away is worth to a crib of three or four players.

With three or four players each lays away one card (three players add one from the deck), so a
player decides only which card to give and cannot plan a crib as in a game of two. The expert
weighs that card by the average crib it makes with three other cards and a starter drawn at
random (``VALUES``): a five helps whoever owns the crib by two points more than most cards, a jack
(his nobs) a little, a king least. ``estimate`` derives the table from a fixed seed (about a
second and a half, too slow for a move); a test checks the table against it.
"""

from __future__ import annotations

import random

from games.engine.cards import DECK, SUITS, Card
from games.engine.scoring import hand_total

SAMPLES = 4000  # a rank's average within about 0.06 points (crib scores vary by about 4)
SEED = 20261201

# estimate(), rounded to two places: rank -> the average crib holding a card of that rank.
VALUES = {
    1: 4.42, 2: 4.73, 3: 4.76, 4: 4.93, 5: 6.76, 6: 4.82, 7: 4.72,
    8: 4.70, 9: 4.53, 10: 4.42, 11: 4.78, 12: 4.30, 13: 4.17,
}  # fmt: skip


def estimate(samples: int = SAMPLES, seed: int = SEED) -> dict[int, float]:
    """Rank -> the average crib (four cards and the starter) that holds a card of that rank, the
    other three cards and the starter drawn at random."""
    rng = random.Random(seed)
    values = {}
    for rank in range(1, 14):
        total = 0
        for _ in range(samples):
            card = Card(rank, rng.choice(SUITS))
            others = rng.sample([c for c in DECK if c != card], 4)
            total += hand_total((card, *others[:3]), others[3], crib=True)
        values[rank] = total / samples
    return values
