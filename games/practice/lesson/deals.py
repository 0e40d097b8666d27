"""The lesson's first deals: its game's private seed is drawn again and again until the first two
deals are teaching deals, whichever player the cut makes dealer.

Every deck still comes from the game's seed by the engine's own shuffle, so the deals keep their
published commitments, the game replays from its moves like any other, and nothing in the source
says which cards will come: the seed is drawn at random like any game's, only kept when its first
deals teach. Later deals are the seed's ordinary deals.
"""

from __future__ import annotations

import secrets
from itertools import combinations

from games.engine.cards import Card
from games.engine.deck import deal_seed, shuffle
from games.engine.scoring import score_hand

PREPARED_DEALS = 2  # the deals whose cards were chosen to teach; the lesson's end comes after them
TRIES = 5000  # a teaching seed turns up within a few hundred; the bound keeps a bad day finite


def _value(card: Card) -> int:
    return min(card.rank, 10)


def _best_show(hand: tuple[Card, ...], starter: Card) -> int:
    return max(score_hand(kept, starter).total for kept in combinations(hand, 4))


def teaches(deck: tuple[Card, ...]) -> bool:
    """Whether a deal from ``deck`` (top first; the two hands alternate, the starter is the 13th
    card) shows what a first deal should, whoever deals: each hand has a fifteen to make in the
    play (a five, or a ten-card when the other holds a five), a rank shared for a pair, and four
    cards worth counting at the show; the starter is not a jack (his heels waits for a later deal)."""
    first, second, starter = deck[0:12:2], deck[1:12:2], deck[12]
    if starter.rank == 11:
        return False
    fives = [any(c.rank == 5 for c in h) for h in (first, second)]
    tens = [any(_value(c) == 10 for c in h) for h in (first, second)]
    fifteens = all(fives[i] or (tens[i] and fives[1 - i]) for i in (0, 1))
    shared = {c.rank for c in first} & {c.rank for c in second}
    return fifteens and bool(shared) and all(_best_show(h, starter) >= 4 for h in (first, second))


def lesson_secret(draw=None) -> str:
    """A game seed (hex, as ``Game.secret``) whose first deals teach; ``draw(32)`` gives candidates
    (``secrets.token_bytes``, unless a test gives its own)."""
    draw = draw or secrets.token_bytes
    secret = draw(32)
    for _ in range(TRIES):
        if all(teaches(shuffle(deal_seed(secret, 0, n))) for n in range(PREPARED_DEALS)):
            break
        secret = draw(32)
    return secret.hex()
