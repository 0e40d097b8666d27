"""How apps that organise games (tournaments) tell play about them, without play importing them.

The dependencies run one way: engine ← play ← history, tournaments. Play announces what happens to
a game with signals (``games.play.signals``) and learns who organised a game from the lookups
registered here, each by its app's ``AppConfig.ready``. A lookup takes game ids and answers, for
those it organised, an :class:`Organised`: its name and page, where the game stands in it, and how
its end reads when the organiser decided it rather than the cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class Ending:
    """An organiser's word on how a game ended: ``how`` follows "dave wins" in place of the game's
    own words (empty: keep them); ``note`` says why, on a line of its own."""

    how: str
    note: str


class Organised(Protocol):
    """What an organiser says about one of its games."""

    name: str  # the event: "Spring Open"
    url: str  # its page
    round_label: str  # where the game stands in it: "round 2"
    void: bool  # the event was cancelled while the game was open: it no longer counts
    abort_refusal: str  # why the game cannot be called off ("" if it can)
    list_word: str  # how a list of games says it ended, when the organiser decided it ("forfeit")

    def ending(self, winner_seat: int | None, resigned: bool) -> Ending | None:
        """How the game's end reads, given the side that won the match and whether a resignation
        ended its last game; None: as the game has it."""

    def ending_of(self, game) -> Ending | None:
        """``ending`` for a finished game, from its stored result."""

    def next_game_for(self, user_id: int) -> int | None:
        """The game of this player's next match in the event, once it has begun (None before)."""


Lookup = Callable[[list[int]], dict[int, Organised]]
_lookups: list[Lookup] = []


def register_organiser(lookup: Lookup) -> None:
    """Called from an app's ``AppConfig.ready``: ``lookup(game_ids)`` answers ``{game_id: Organised}``
    for the games that app organised, in one query for the lot."""
    if lookup not in _lookups:
        _lookups.append(lookup)


def organised(game_ids: Iterable[int]) -> dict[int, Organised]:
    """Every organised game among ``game_ids`` (a list of games asks once, not once a row)."""
    ids = [pk for pk in game_ids if pk is not None]
    found: dict[int, Organised] = {}
    if ids:
        for lookup in _lookups:
            found.update(lookup(ids))
    return found


def organiser_of(game) -> Organised | None:
    """Who organised ``game``, or None for a game people started themselves (``Game.organised`` says
    which, so only an organised game is looked up)."""
    if game.pk is None or not game.organised:
        return None
    return organised([game.pk]).get(game.pk)


@dataclass(frozen=True)
class PlayerNotice:
    """An organiser's word for one player, shown in their lobby: ``text``, from ``source`` (an
    event's name), whose page is ``url``, said at ``at``."""

    text: str
    source: str
    url: str
    at: datetime
    action: str = ""  # a button beside it ("Open the board") to ``action_url``
    action_url: str = ""


NoticesFor = Callable[[Any], list[PlayerNotice]]
_notices: list[NoticesFor] = []


def register_player_notices(lookup: NoticesFor) -> None:
    """Called from an app's ``AppConfig.ready``: ``lookup(user)`` answers what that app has to say
    to a signed-in player now (a tournament director's announcement to its entrants). An app that
    posts one pushes the lobbies (``broadcast.lobby_changed``) so it shows at once."""
    if lookup not in _notices:
        _notices.append(lookup)


def player_notices(user) -> list[PlayerNotice]:
    """Every organiser's word for ``user``, newest first."""
    found = [notice for lookup in _notices for notice in lookup(user)]
    return sorted(found, key=lambda n: n.at, reverse=True)
