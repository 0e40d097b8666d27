"""Deterministic shuffles and seeds (engine-api.md, deck.py)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from games.engine.cards import DECK, format_cards
from games.engine.deck import _below, commitment, cut_seed, deal_seed, shuffle

# Pinned: changing the algorithm would silently change every stored game's deals.
EXAMPLE_ORDER = (
    "2D AD JS 6S QC TH 7S 4D 4S 8S AH 5D JH 3S KD 6H 5H 9C 9H 4H 7H JC 6C QD 5C 9D "
    "TS KC 9S JD 3H 3C 4C KS TC AS 2C 3D 8D 8C AC 7C 6D TD 7D 8H 2H KH 2S 5S QH QS"
)


def spec_shuffle(seed: bytes) -> list[str]:
    """The docstring's algorithm written out again, as a stranger would from the text alone."""
    words: list[int] = []
    counter = 0

    def next_word() -> int:
        nonlocal counter
        if not words:
            block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            counter += 1
            words.extend(int.from_bytes(block[k : k + 4], "big") for k in range(0, 32, 4))
        return words.pop(0)

    deck = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]  # full_deck() order
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        while (w := next_word()) >= limit:
            pass
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_shuffle_is_deterministic_and_a_permutation() -> None:
    deck = shuffle(b"some seed")
    assert deck == shuffle(b"some seed")
    assert sorted(deck) == sorted(DECK)
    assert deck != shuffle(b"some seed!")


def test_known_vector_is_pinned() -> None:
    assert format_cards(shuffle(b"example")) == EXAMPLE_ORDER


@pytest.mark.parametrize("seed", [b"example", b"", b"\x00" * 32, deal_seed(b"secret", 3, 7)])
def test_shuffle_follows_the_documented_algorithm(seed: bytes) -> None:
    assert format_cards(shuffle(seed)).split() == spec_shuffle(seed)


def test_below_rejects_the_biased_top_words() -> None:
    # 2**32 % 3 == 1, so only the very last word is thrown away for n == 3.
    assert _below(iter([2**32 - 1, 5]), 3) == 2
    assert _below(iter([2**32 - 2]), 3) == (2**32 - 2) % 3
    # n == 52: 2**32 % 52 == 48 words at the top are rejected.
    assert _below(iter([2**32 - 48, 2**32 - 1, 2**32 - 49]), 52) == (2**32 - 49) % 52


def test_deal_and_cut_seed_byte_layout() -> None:
    secret = b"\x01secret"
    assert deal_seed(secret, 2, 9) == hashlib.sha256(
        secret + b"deal" + (2).to_bytes(8, "big") + (9).to_bytes(8, "big")
    ).digest()
    assert cut_seed(secret, 2, 1) == hashlib.sha256(
        secret + b"cut" + (2).to_bytes(8, "big") + (1).to_bytes(8, "big")
    ).digest()
    pinned = "3e744fd102875f6e9a639202720cd4417942d37928fa2f2b7f85e80053c777cb"
    assert deal_seed(b"secret", 0, 0).hex() == pinned


def test_seeds_differ_across_games_deals_and_purposes() -> None:
    seeds = {deal_seed(b"s", g, d) for g in range(3) for d in range(20)}
    seeds |= {cut_seed(b"s", g, a) for g in range(3) for a in range(5)}
    assert len(seeds) == 3 * 20 + 3 * 5


@pytest.mark.parametrize("bad", [-1, 2**64, 1.0, True])
def test_seed_counters_must_be_u64(bad: object) -> None:
    with pytest.raises(ValueError):
        deal_seed(b"s", bad, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        cut_seed(b"s", 0, bad)  # type: ignore[arg-type]


def test_seed_must_be_bytes() -> None:
    with pytest.raises(TypeError):
        shuffle("text")  # type: ignore[arg-type]


def test_commitment_is_hex_sha256() -> None:
    seed = deal_seed(b"s", 0, 0)
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64


def test_top_card_is_roughly_uniform() -> None:
    # Fixed seeds make this deterministic; the bounds are about 5 standard deviations wide
    # (expected 100 per card, sd about 10), so only a real bias could trip them.
    shuffles = 52 * 100
    top = Counter(shuffle(i.to_bytes(4, "big"))[0] for i in range(shuffles))
    assert set(top) == set(DECK)
    assert all(50 <= n <= 150 for n in top.values()), top.most_common(3)
    # And one fixed card spreads over all positions.
    where = Counter(shuffle(b"p" + i.to_bytes(4, "big")).index(DECK[0]) for i in range(shuffles))
    assert set(where) == set(range(52))
    assert all(50 <= n <= 150 for n in where.values()), where.most_common(3)
