"""What the apps above play lend it, each registered by its app's ``AppConfig.ready``: who organised
a game, the notices on a player's lobby, whether a player may get news, the rating an organiser
seeds by, and the pages of the apps above.

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
    # News that follows the player onto every page they have open ("Your match is ready"), once:
    # the same key is the same news, which the page keeps dismissed. Empty: the lobby's alone.
    key: str = ""


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


def site_notices(user) -> list[PlayerNotice]:
    """The organisers' news for ``user`` that every page shows them (those with a ``key``)."""
    return [notice for notice in player_notices(user) if notice.key]


ExpectsNews = Callable[[Any], bool]
_expecting: list[ExpectsNews] = []


def register_news_expected(lookup: ExpectsNews) -> None:
    """Called from an app's ``AppConfig.ready``: ``lookup(user)`` says, in one cheap query, whether
    that app may have news for the player at any moment (an entry in a tournament in progress).
    When it pushes such news it sends it to the player (``broadcast.player_news``)."""
    if lookup not in _expecting:
        _expecting.append(lookup)


def news_expected(user) -> bool:
    """Whether any organiser may push news to ``user`` now: only then does a page listen for it."""
    if not getattr(user, "is_authenticated", False):
        return False
    return any(lookup(user) for lookup in _expecting)


RatingFor = Callable[[Any, int], "float | None"]
_ratings: list[RatingFor] = []


def register_rating(rating: RatingFor) -> None:
    """Called from the ``AppConfig.ready`` of the app that rates players: ``rating(user, target)`` is
    the player's rating in games to ``target`` points, or None for a player not rated there."""
    if rating not in _ratings:
        _ratings.append(rating)


def rating_for(target: int) -> Callable[[Any], float | None] | None:
    """``rate(user)``: a player's rating in games to ``target`` points (None: not rated), or None if
    no installed app rates players (an organiser then seeds in registration order)."""
    if not _ratings:
        return None
    rating = _ratings[0]
    return lambda user: rating(user, target)


# Pages of the apps above that play's own pages link to, by what they are to play: a finished
# game's record, how fair deals are checked, what each house rule means, and the pages the apps
# above link to among themselves through play (a player's profile, the home page). Each is
# registered by the app that serves it; play and its siblings ask for it by this name, never by
# the owner's URL name.
PAGES = {
    "home": "the site's home page",
    "watch": "the list of games being played that anyone may watch",
    "record": "a finished game's record (a game id)",
    "fair_deals": "how a deal's commitment is checked",
    "house_rules": "what each house rule means",
    "hand_counter": "the counter that counts any hand a player types",
    "profile": "a player's profile (a username)",
    "table_preferences": "where a player's table switches (sound, animations) are saved",
}
_pages: dict[str, Callable[..., str]] = {}


def register_page(name: str, url: Callable[..., str]) -> None:
    """Called from an app's ``AppConfig.ready``: ``url(*args)`` gives the address of the page
    ``name`` (one of ``PAGES``)."""
    if name not in PAGES:
        raise ValueError(f"{name!r} is not among the pages play knows: {sorted(PAGES)}")
    _pages[name] = url


def page_url(name: str, *args) -> str:
    """The address of the page ``name`` (one of ``PAGES``). As ``reverse`` for a name no installed
    app serves, it raises ``NoReverseMatch``.

    >>> page_url("home")
    '/'
    """
    url = _pages.get(name)
    if url is None:
        from django.urls import NoReverseMatch

        raise NoReverseMatch(f"no installed app serves the page {name!r}")
    return url(*args)


# The coach of a game that teaches (``Game.lesson``): what the table says to the learner about the
# step in front of them. Lent by the app that teaches, so play draws the panel without knowing the
# lessons.
Coach = Callable[[Any, Any, Any], "dict | None"]
_coaches: list[Coach] = []


def register_coach(coach: Coach) -> None:
    """Called from an app's ``AppConfig.ready``: ``coach(game, seat_view, user)`` answers the coach
    panel's context for a lesson's board (``play/parts/coach.jinja``), or None for no panel."""
    if coach not in _coaches:
        _coaches.append(coach)


def coach_for(game, seat_view, user) -> dict | None:
    """The coach panel for ``user``'s board of ``game``, or None (not a lesson, or no coach)."""
    if not getattr(game, "lesson", False):
        return None
    return next((panel for coach in _coaches if (panel := coach(game, seat_view, user)) is not None), None)


ComputerDefaults = Callable[[Any], dict]
_computer_defaults: list[ComputerDefaults] = []


def register_computer_defaults(lookup: ComputerDefaults) -> None:
    """Called from the ``AppConfig.ready`` of the app that keeps a player's preferences:
    ``lookup(user)`` answers how the player last started a game against the computer, as the
    lobby's form takes it (``{"level": "expert", "target": 61, ...}``; empty: the form's defaults)."""
    if lookup not in _computer_defaults:
        _computer_defaults.append(lookup)


def computer_defaults(user) -> dict:
    """How ``user`` last started a game against the computer ({} for a visitor or a first game)."""
    if not getattr(user, "is_authenticated", False) or not _computer_defaults:
        return {}
    return _computer_defaults[0](user)


# The clocks of games at your own pace (``Game.days_per_move``), lent by the app that keeps them:
# play draws their panel on a board, counts the games waiting on a player ("Your turn (N)") and
# opens the next one after a move, without knowing how a clock runs.
_correspondence: dict[str, Callable[..., Any]] = {}


def register_correspondence(*, panel: Callable[[Any, int | None, list[str], Any], dict | None],
                            waiting_count: Callable[[int], int],
                            next_waiting: Callable[[Any, Any], int | None]) -> None:
    """Called from the ``AppConfig.ready`` of the app that keeps the clocks: ``panel(game, seat,
    names, user)`` answers the board's clock panel (its ``template`` and what it draws) for
    ``user`` at ``seat`` (None: not playing); ``waiting_count(user_id)`` how many games wait on the
    player; ``next_waiting(game, user)`` the next game waiting on ``user`` once ``game`` no longer is."""
    _correspondence.update(panel=panel, waiting_count=waiting_count, next_waiting=next_waiting)


def correspondence_panel(game, seat: int | None, names: list[str], user) -> dict | None:
    """The clock panel of a game at your own pace, or None (a game at the table, or no clocks kept)."""
    if not game.days_per_move or "panel" not in _correspondence:
        return None
    return _correspondence["panel"](game, seat, names, user)


def waiting_count(user_id: int) -> int:
    """How many games at your own pace wait on the player (0 with no clocks kept)."""
    count = _correspondence.get("waiting_count")
    return count(user_id) if count else 0


def next_waiting(game, user) -> int | None:
    """After ``user`` moved in ``game`` at your own pace: the next game waiting on them, if this one no
    longer is."""
    found = _correspondence.get("next_waiting")
    return found(game, user) if found else None
