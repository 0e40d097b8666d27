"""Actions: what a seat asks to do. Each is a small frozen dataclass carrying the acting ``seat``.

The Move log stores them with :func:`action_to_dict`; :func:`action_from_dict` reads them back.

>>> from games.engine.cards import parse_cards
>>> a = Discard(1, parse_cards("5H JD"))
>>> action_to_dict(a)
{'type': 'discard', 'seat': 1, 'cards': ['5H', 'JD']}
>>> action_from_dict(action_to_dict(a)) == a
True
>>> action_to_dict(Count(0, 12))
{'type': 'count', 'seat': 0, 'points': 12}
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Card, parse_card
from games.engine.errors import MalformedAction


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """Pick a position 0..51 of the face-down cut deck (each seat a different one)."""

    seat: int
    position: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay away cards into the dealer's crib (two cards with two players)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        # Accept a list for convenience but store a tuple so actions stay hashable and comparable.
        if not isinstance(self.cards, tuple):
            object.__setattr__(self, "cards", tuple(self.cards))


@dataclass(frozen=True, slots=True)
class CutStarter:
    """The seat right of the dealer cuts the pack and the starter is turned (``pone_cuts``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Play:
    """Lay a card in the play (pegging)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Go:
    """Say go: allowed only when the seat holds cards and none fits under 31."""

    seat: int


@dataclass(frozen=True, slots=True)
class Count:
    """Manual counting: claim ``points`` for the hand (or crib) now being counted."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class CallMuggins:
    """After an opponent's manual count (muggins on): take any points they missed."""

    seat: int


@dataclass(frozen=True, slots=True)
class AcceptCount:
    """After an opponent's manual count (muggins on): let it stand and go on."""

    seat: int


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Acknowledge the finished show; the next deal starts once every seat has."""

    seat: int


@dataclass(frozen=True, slots=True)
class NextGame:
    """Match play, after a game: start the next game (the loser of the last one deals)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Resign:
    """Give up: the match ends at once and the other seat wins it."""

    seat: int


Action = (
    CutForDeal | Discard | CutStarter | Play | Go | Count | CallMuggins | AcceptCount | NextDeal | NextGame
    | Resign
)

_TYPES: dict[str, type] = {
    "cut_for_deal": CutForDeal,
    "discard": Discard,
    "cut_starter": CutStarter,
    "play": Play,
    "go": Go,
    "count": Count,
    "call_muggins": CallMuggins,
    "accept_count": AcceptCount,
    "next_deal": NextDeal,
    "next_game": NextGame,
    "resign": Resign,
}
_NAMES: dict[type, str] = {cls: name for name, cls in _TYPES.items()}


def action_to_dict(action: Action) -> dict:
    """JSON-safe dict: ``{"type": ..., "seat": ..., <fields>}`` with cards in notation."""
    out: dict = {"type": _NAMES[type(action)], "seat": action.seat}
    if isinstance(action, CutForDeal):
        out["position"] = action.position
    elif isinstance(action, Discard):
        out["cards"] = [str(c) for c in action.cards]
    elif isinstance(action, Play):
        out["card"] = str(action.card)
    elif isinstance(action, Count):
        out["points"] = action.points
    return out


def action_from_dict(data: dict) -> Action:
    """Inverse of :func:`action_to_dict`; raises ``MalformedAction`` for an unknown type or a bad
    field, ``BadCard`` (a kind of it) for a card's bad notation."""
    try:
        cls = _TYPES[data["type"]]
        seat = int(data["seat"])
        if cls is CutForDeal:
            return CutForDeal(seat, int(data["position"]))
        if cls is Discard:
            return Discard(seat, tuple(parse_card(c) for c in data["cards"]))
        if cls is Play:
            return Play(seat, parse_card(data["card"]))
        if cls is Count:
            return Count(seat, int(data["points"]))
        return cls(seat)
    except MalformedAction:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedAction(f"not an action: {data!r}") from exc
