"""Events: what happened, as data every seat may see.

``apply`` returns the events an action produced, and the state keeps the current deal's events in
``state.log``. An event says what happened, never in words: a kind, the seat it concerns, the points
it scored, the cards it shows, and the numbers a sentence about it needs (the count, the scores).
Putting it into words is the reader's business (the site does it in ``games.play.narration``).
An event never holds a card hidden from any seat: a discard names no cards, a hand is listed only
when it is counted, so the log can go to every seat as it is.

A stored event carries the version of its shape (``v``, :data:`EVENT_VERSION`); an event stored
before versions were written has none and reads as version 1. When a kind's fields change, the
version goes up and :data:`UPGRADES` gets the function that turns the previous shape into the new
one, so stored games read in today's shape without being replayed through today's engine.

>>> from games.engine.cards import parse_cards
>>> ev = Event(0, "fifteen", 2, parse_cards("7H 8S"))
>>> ev.to_dict()
{'seat': 0, 'kind': 'fifteen', 'points': 2, 'cards': ['7H', '8S'], 'v': 1}
>>> Event.from_dict(ev.to_dict()) == ev
True
>>> Event(1, "play", cards=parse_cards("5H"), count=15).to_dict()
{'seat': 1, 'kind': 'play', 'points': 0, 'cards': ['5H'], 'count': 15, 'v': 1}
>>> Event.from_dict({"seat": 1, "kind": "go", "points": 1, "cards": []}).points  # stored without v
1
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.cards import Card, parse_card

# Every ``Event.kind`` the state machine emits (scoring kinds come from ScoreGroup kinds), with what
# each one carries beyond its kind.
EVENT_KINDS = frozenset({
    # cut for deal
    "cut",          # seat revealed its cut card (cards = the card)
    "recut",        # equal low cards: everyone cuts again (cards = the tied low cards)
    "dealer",       # seat deals first; detail "cut": it cut lowest (cards = every seat's cut card,
                    # in seat order); detail "lost": its side lost the last game of the match
    # deal / discard / starter
    "deal",         # a new deal starts (seat = the dealer)
    "discard",      # seat laid away its cards (no cards named)
    "cut_pack",     # seat cut the pack for the starter (house rule pone_cuts)
    "starter",      # the starter is turned (cards = the starter)
    "his_heels",    # jack turned: 2 to the dealer (cards = the jack)
    # the play
    "play",         # seat laid a card (cards = the card; count = the count it made)
    "say_go",       # seat cannot play and says go
    "fifteen", "thirty_one", "pair", "run",  # pegging scores (cards = the cards that make it)
    "go",           # 1 for the go
    "last_card",    # 1 for the last card (cards = the card)
    "reset",        # the count goes back to 0
    # the show
    "hand", "crib",  # a hand / the crib counted (points = awarded; cards = the hand + starter)
    "peg_out_zone",  # seat was in the peg-out zone when the show began: its hand or crib (detail)
                     # scores nothing (cards = the hand + starter)
    "over_count",    # seat claimed more than its hand or crib (detail) is worth (count = the claim);
                     # the "hand" / "crib" event after it pegs the true worth
    "over_count_penalty",  # muggins on: the seat on the over-counter's left pegs the excess
                           # (points; detail "hand" or "crib")
    "muggins",       # muggins called (points = points taken; 0 if nothing was missed)
    "accept",        # the count was accepted without calling muggins
    # the end
    "game_won",      # seat = the winning side; scores and skunks by side; detail "target" or "resign"
    "match_won",     # seat = the winning side; scores = the games won by each side
    "resign",        # seat resigns for its side
})


# The shape of a stored event. Raise it when a kind's fields change, and add to UPGRADES the function
# that turns a dict of the previous version into the new one (UPGRADES[n]: version n to n + 1).
EVENT_VERSION = 1
UPGRADES: dict[int, Callable[[dict], dict]] = {}


def upgrade(data: dict) -> dict:
    """A stored event's dict in today's shape (``v`` = :data:`EVENT_VERSION`); one stored without a
    version is version 1. An event from a newer version than this code knows is refused.

    >>> upgrade({"seat": 0, "kind": "go", "points": 1, "cards": []})["v"] == EVENT_VERSION
    True
    """
    version = data.get("v", 1)
    if version > EVENT_VERSION:
        raise ValueError(f"an event of version {version}: this code reads up to {EVENT_VERSION}")
    while version < EVENT_VERSION:
        data = UPGRADES[version](data)
        version += 1
    return data if data.get("v") == version else {**data, "v": version}


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``seat`` is the seat it concerns (``None`` for the table; for
    ``game_won`` and ``match_won`` the winning side); ``points`` the points it scored for that
    seat's side (0 for none); ``count`` the running count a card made; ``scores`` and ``skunks``
    each side's score and skunk level (``GameResult``'s) at the end of a game, or the games each
    side won at the end of a match; ``detail`` a word a kind needs (see :data:`EVENT_KINDS`)."""

    seat: int | None
    kind: str
    points: int = 0
    cards: tuple[Card, ...] = ()
    count: int | None = None
    scores: tuple[int, ...] = ()
    skunks: tuple[int, ...] = ()
    detail: str = ""

    def to_dict(self) -> dict:
        """JSON-safe; the fields a kind does not use are left out."""
        data: dict = {
            "seat": self.seat, "kind": self.kind, "points": self.points,
            "cards": [str(c) for c in self.cards],
        }
        if self.count is not None:
            data["count"] = self.count
        if self.scores:
            data["scores"] = list(self.scores)
        if self.skunks:
            data["skunks"] = list(self.skunks)
        if self.detail:
            data["detail"] = self.detail
        data["v"] = EVENT_VERSION
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Event:
        data = upgrade(data)
        return cls(
            data["seat"], data["kind"], data.get("points", 0),
            tuple(parse_card(c) for c in data.get("cards", ())),
            data.get("count"), tuple(data.get("scores", ())), tuple(data.get("skunks", ())),
            data.get("detail", ""),
        )
