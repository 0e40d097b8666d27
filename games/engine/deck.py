"""Deterministic, verifiable shuffles.

Every deck the engine uses comes from a seed (bytes) through :func:`shuffle`; seeds come from the
game's private ``secret`` through :func:`deal_seed` and :func:`cut_seed`. Publishing
:func:`commitment` of a seed before the deal and the seed after it lets anyone check the deal was
fixed in advance. Everything here is specified to the byte so the browser can re-derive a deal in
JavaScript (Web Crypto's SHA-256 is enough).

**Random stream.** Block ``k`` (``k = 0, 1, 2, ...``) is ``SHA-256(seed || k)`` where ``k`` is an
8-byte big-endian unsigned integer. Each 32-byte block is cut into eight 4-byte words read as
big-endian unsigned 32-bit integers; words are used in order, block after block.

**Uniform index below n.** ``limit = 2**32 - (2**32 % n)`` (the largest multiple of ``n`` that is
at most ``2**32``). Take the next word ``w``; if ``w >= limit`` throw it away and take another;
otherwise the result is ``w % n``. (Throwing away the top sliver keeps every result equally likely.)

**Shuffle.** Start from ``full_deck()`` order: suits ``S H D C``, each ace to king, so index
``13 * suit + rank - 1`` (``AS`` is 0, ``KC`` is 51). For ``i`` from 51 down to 1: ``j`` = uniform
index below ``i + 1``; swap positions ``i`` and ``j``. The result is the deck top first: position 0
is the first card dealt.

**Seeds.** ``deal_seed = SHA-256(secret || b"deal" || u64(game_no) || u64(deal_no))`` and
``cut_seed = SHA-256(secret || b"cut" || u64(game_no) || u64(attempt))``, ``u64`` being 8-byte
big-endian unsigned, ``b"deal"``/``b"cut"`` the ASCII bytes. All counters start at 0.

JavaScript sketch (``sha256`` returning a ``Uint8Array``)::

    function u64(n) {   // 8-byte big-endian
      const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt(n)); return b;
    }
    async function* words(seed) {
      for (let k = 0n; ; k++) {
        const d = new DataView((await sha256(concat(seed, u64(k)))).buffer);
        for (let o = 0; o < 32; o += 4) yield d.getUint32(o);   // big-endian by default
      }
    }
    // below(n): limit = 2**32 - (2**32 % n); repeat w = next word until w < limit; return w % n

>>> from games.engine.cards import format_cards
>>> deck = shuffle(b"example")
>>> len(deck), len(set(deck))
(52, 52)
>>> format_cards(deck[:6])
'2D AD JS 6S QC TH'
>>> commitment(b"abc")
'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from games.engine.cards import Card, full_deck

_U64_MAX = 2**64 - 1
_WORD_SPACE = 2**32


def _words(seed: bytes) -> Iterator[int]:
    """The stream of big-endian uint32 words from SHA-256(seed || u64 counter), counter from 0."""
    counter = 0
    while True:
        digest = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(digest[offset : offset + 4], "big")
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) by rejection sampling (no modulo bias)."""
    limit = _WORD_SPACE - (_WORD_SPACE % n)
    while True:
        word = next(words)
        if word < limit:
            return word % n


def shuffle(seed: bytes) -> tuple[Card, ...]:
    """The 52 cards in the order fixed by ``seed`` (see the module docstring for the algorithm).

    >>> shuffle(b"x") == shuffle(b"x"), shuffle(b"x") == shuffle(b"y")
    (True, False)
    """
    if not isinstance(seed, bytes | bytearray):
        raise TypeError(f"seed must be bytes, not {type(seed).__name__}")
    deck = list(full_deck())
    words = _words(bytes(seed))
    for i in range(len(deck) - 1, 0, -1):
        j = _below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _u64(name: str, value: int) -> bytes:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _U64_MAX:
        raise ValueError(f"{name} must be an integer in 0..2**64-1, not {value!r}")
    return value.to_bytes(8, "big")


def deal_seed(secret: bytes, game_no: int, deal_no: int) -> bytes:
    """Seed of deal ``deal_no`` (0, 1, ...) of game ``game_no`` (0, 1, ... in a match).

    ``SHA-256(secret || b"deal" || u64be(game_no) || u64be(deal_no))``, 32 bytes.

    >>> deal_seed(b"s", 0, 0) != deal_seed(b"s", 0, 1) != deal_seed(b"s", 1, 0)
    True
    """
    counters = _u64("game_no", game_no) + _u64("deal_no", deal_no)
    return hashlib.sha256(bytes(secret) + b"deal" + counters).digest()


def cut_seed(secret: bytes, game_no: int, attempt: int) -> bytes:
    """Seed of the cut-for-deal deck of game ``game_no``; ``attempt`` counts re-cuts after a tie (from 0).

    ``SHA-256(secret || b"cut" || u64be(game_no) || u64be(attempt))``, 32 bytes. Never equal to a
    deal seed of the same secret (the byte before the two counters differs: ``t`` vs ``l``).
    """
    counters = _u64("game_no", game_no) + _u64("attempt", attempt)
    return hashlib.sha256(bytes(secret) + b"cut" + counters).digest()


def commitment(seed: bytes) -> str:
    """Hex SHA-256 of ``seed``: publish it before the deal, reveal the seed after, anyone can check."""
    return hashlib.sha256(bytes(seed)).hexdigest()
