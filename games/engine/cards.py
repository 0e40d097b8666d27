"""Cards and the notation used everywhere: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` + suit ``S H D C``.

>>> parse_cards("5H 5C 5S JD")
(Card(rank=5, suit='H'), Card(rank=5, suit='C'), Card(rank=5, suit='S'), Card(rank=11, suit='D'))
>>> str(parse_card("TD"))
'TD'
>>> parse_card("TD").value, parse_card("TD").name
(10, 'Ten of diamonds')
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.errors import BadCard

RANK_CHARS = "A23456789TJQK"
SUITS = "SHDC"
RANK_NAMES = (
    "Ace", "Two", "Three", "Four", "Five", "Six", "Seven",
    "Eight", "Nine", "Ten", "Jack", "Queen", "King",
)
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
JACK = 11


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. ``rank`` is 1 (ace, always low) to 13 (king); ``suit`` one of ``S H D C``."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or self.suit not in SUITS:
            raise BadCard(f"not a card: rank={self.rank!r} suit={self.suit!r}")

    @property
    def value(self) -> int:
        """Count value: ace 1, pips face value, J Q K 10."""
        return min(self.rank, 10)

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank - 1]

    @property
    def name(self) -> str:
        """Accessible name, e.g. ``Five of hearts``."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.suit]

    @property
    def index(self) -> int:
        """0..51, suit-major in ``S H D C`` order: a compact id for tables and bitmasks."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    def __str__(self) -> str:
        return self.rank_char + self.suit


def parse_card(token: str) -> Card:
    """Parse one card in notation (``"5H"``, ``"TD"``; ``10D`` and lower case are accepted too).

    Raises ``BadCard`` (a ``ValueError``) naming the bad token.
    """
    known = _BY_NOTATION.get(token)  # saved states hold canonical notation: ~100 cards a board
    if known is not None:
        return known
    text = token.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANK_CHARS or text[1] not in SUITS:
        raise BadCard(f"bad card {token!r}: expected rank A23456789TJQK then suit SHDC, e.g. 5H")
    return Card(RANK_CHARS.index(text[0]) + 1, text[1])


def parse_cards(text: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas (or a list of tokens)."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(t) for t in tokens)


def format_cards(cards) -> str:
    return " ".join(str(c) for c in cards)


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in a fixed order (suit-major ``S H D C``, ace to king): ``deck[c.index] == c``."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


DECK = full_deck()
_BY_NOTATION = {str(c): c for c in DECK}
