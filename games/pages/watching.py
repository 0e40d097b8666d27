"""The games anyone may watch: the live games being played now, tournament matches first.

The list is the same for every reader (a private game is in nobody's list), so it is drawn once for
each change and the drawn list is shared: ``broadcast.watch_list_changed`` names the list as it is
with a new stamp whenever a game anyone may watch begins, scores or ends, and the list drawn for a
stamp is kept in the cache under it. A page, and every socket told of the change, reads it from
there; only the first to ask for a new stamp draws it (``tests/pages/test_watch.py`` counts).
A list lives ``KEEP_SECONDS`` at most, so a game left idle drops out of it without a push.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from games.infra import shared_cache
from games.play import components
from games.play.broadcast import WATCH_LIST_STAMP_KEY
from games.play.models import ComputerLevel, Game, Seat
from games.play.names import public_name
from games.play.registry import organised

# Games not moved for this long are not being played now.
IDLE_AFTER = timedelta(minutes=30)
# The most games the list shows.
SHOWN = 40
KEEP_SECONDS = 60
LEVELS = dict(ComputerLevel.choices)


@dataclass(frozen=True)
class LiveGame:
    game_id: int
    url: str
    names: tuple[str, ...]
    scores: tuple[int, ...]  # one per side (two partnerships at four)
    target: int
    match: str  # "games 1–0" in a match of several games, else ""
    event: str  # the tournament's name, for a tournament match
    vs_computer: bool
    dealt: bool  # past the cut for deal: there are cards on the table to watch

    @property
    def sides(self) -> list[dict]:
        """Each side's name(s) and score, as the list draws them."""
        n = len(self.scores)
        return [{"name": " & ".join(self.names[i::n]), "score": self.scores[i]} for i in range(n)]


def live_games(limit: int = SHOWN) -> list[LiveGame]:
    """The games being played now that anyone may watch: tournament matches first, then games
    between people, then games against the computer, the latest moved first. Three queries.
    A game passed round one device is its room's, not the site's, and a lesson is its learner's:
    neither is listed."""
    since = timezone.now() - IDLE_AFTER
    rows = list(
        Game.objects.filter(status=Game.Status.ACTIVE, private=False, days_per_move=0, updated_at__gte=since,
                            pass_play__isnull=True, lesson=False)
        .exclude(state=None)
        .order_by("-organised", "vs_computer", "-updated_at")
        .values_list("id", "organised", "vs_computer", "target", "match_games", "state__scores",
                     "state__match_scores", "state__phase")[:limit]
    )
    ids = [row[0] for row in rows]
    names: dict[int, list[str]] = {}
    seats = Seat.objects.filter(game_id__in=ids).order_by("game_id", "index")
    for game_id, username, level in seats.values_list("game_id", "user__username", "computer_level"):
        name = public_name(username) if username else f"Computer ({LEVELS.get(level, level).lower()})"
        names.setdefault(game_id, []).append(name)
    events = organised([row[0] for row in rows if row[1]])
    out = []
    for game_id, _, vs_computer, target, match_games, scores, match_scores, phase in rows:
        scores = tuple(scores or ())
        event = events.get(game_id)
        match = "games " + "–".join(str(s) for s in match_scores) if match_games > 1 and match_scores else ""
        out.append(LiveGame(game_id, reverse("watch_game", args=[game_id]), tuple(names.get(game_id, ())),
                            scores, target, match, event.name if event else "", vs_computer, phase != "cut"))
    return out


def current_stamp() -> str:
    """The stamp of the list as it is: the last change's, or a first one."""
    stamp = shared_cache.kept(WATCH_LIST_STAMP_KEY, DOING)
    if stamp is None:
        shared_cache.keep(WATCH_LIST_STAMP_KEY, secrets.token_hex(8), None, DOING, only_if_new=True)
        stamp = shared_cache.kept(WATCH_LIST_STAMP_KEY, DOING) or ""
    return stamp


DOING = "the list of games to watch"
_drawing = threading.Lock()
drawn = 0  # lists drawn by this process (the tests and the bench count them)


def list_html(stamp: str | None = None, *, oob: bool = False) -> str:
    """The list for ``stamp`` (None: the current one), drawn once for all its readers."""
    global drawn
    stamp = stamp or current_stamp()
    key = f"watch-list:html:{stamp}"
    html = shared_cache.kept(key, DOING)
    if html is None:
        with _drawing:  # the sockets of one process told of one change: one of them draws
            html = shared_cache.kept(key, DOING)
            if html is None:
                html = str(components.render("pages/watch_list.jinja", {"games": live_games()}))
                shared_cache.keep(key, html, KEEP_SECONDS, DOING)
                drawn += 1
    if oob:  # a push: the list's own element, told to morph into place
        html = html.replace('<div id="watch-list"', '<div id="watch-list" hx-swap-oob="morph"', 1)
    return html


def by_interest(games: list[LiveGame]) -> list[LiveGame]:
    """The games as the home page picks one to show: games between people first, and among them
    those dealt (cards on the table) first, in list order."""
    return sorted(games, key=lambda g: (g.vs_computer, not g.dealt))
