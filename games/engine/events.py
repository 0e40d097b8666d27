"""Events: what happened, in words fit to show every seat.

``apply`` returns the events an action produced, and the state keeps the current deal's events in
``state.log``. An event never holds a card hidden from any seat: a discard names no cards, a hand
is listed only when it is counted, so the log can go to every seat as it is.

>>> from games.engine.cards import parse_cards
>>> ev = Event(0, "fifteen", 2, "Fifteen for 2", parse_cards("7H 8S"))
>>> ev.to_dict()
{'seat': 0, 'kind': 'fifteen', 'points': 2, 'text': 'Fifteen for 2', 'cards': ['7H', '8S']}
>>> Event.from_dict(ev.to_dict()) == ev
True
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Card, parse_card

# Every ``Event.kind`` the state machine emits (scoring kinds come from ScoreGroup kinds).
EVENT_KINDS = frozenset({
    # cut for deal
    "cut",          # seat revealed its cut card (cards = the card)
    "recut",        # equal ranks: cut again
    "dealer",       # who deals and why (seat = the dealer)
    # deal / discard / starter
    "deal",         # a new deal starts (seat = the dealer)
    "discard",      # seat laid away its cards (no cards named)
    "starter",      # the starter is turned (cards = the starter)
    "his_heels",    # jack turned: 2 to the dealer
    # the play
    "play",         # seat laid a card (cards = the card; text gives the count)
    "say_go",       # seat cannot play and says go
    "fifteen", "thirty_one", "pair", "run",  # pegging scores (cards = the cards that make it)
    "go",           # 1 for the go
    "last_card",    # 1 for the last card
    "reset",        # the count goes back to 0
    # the show
    "hand", "crib",  # a hand / the crib counted (points = awarded; cards = the hand + starter)
    "peg_out_zone",  # the seat was in the peg-out zone when the show began: scores nothing
    "muggins",       # muggins called (points = points taken; 0 if nothing was missed)
    "accept",        # the count was accepted without calling muggins
    # the end
    "game_won", "match_won", "resign",
})


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``seat`` is the seat it concerns (``None`` for the table);
    ``points`` the points it scored for that seat (0 for none)."""

    seat: int | None
    kind: str
    points: int = 0
    text: str = ""
    cards: tuple[Card, ...] = ()

    def to_dict(self) -> dict:
        return {
            "seat": self.seat, "kind": self.kind, "points": self.points, "text": self.text,
            "cards": [str(c) for c in self.cards],
        }

    @classmethod
    def from_dict(cls, data: dict) -> Event:
        return cls(
            data["seat"], data["kind"], data["points"], data["text"],
            tuple(parse_card(c) for c in data["cards"]),
        )
