"""The home page: a place to play's first screen. Play the computer in one click (as the player last
did), play a friend, the player's games waiting on them, today's puzzle, and a game being played now,
drawn live as a spectator sees it. A visitor gets the same page with signing up in place of their
own lists.

What every reader sees alike is drawn once and shared: the game being played (its board, one for
each of its versions, ``board.spectator``) and which game that is (one for each change of the list
of games to watch, ``pages.watching``). A player's own part is a handful of small queries.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.accounts.preferences import computer_defaults
from games.correspondence.lists import games_in_progress
from games.infra import shared_cache
from games.pages import watching
from games.play.board.links import game_url
from games.play.board.spectator import watch_html
from games.play.forms import RULE_FIELDS, ComputerGameForm
from games.play.models import ComputerLevel, Game, Seat
from games.play.names import public_name
from games.puzzles import clock as puzzle_clock
from games.puzzles import services as puzzle_services
from games.puzzles.models import Puzzle

log = logging.getLogger(__name__)

# The player's own lists on the first screen: a few rows, then a link to the whole list.
ROWS = 4


def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    context = {"puzzle": _puzzle(), "computer": _computer(user)}
    own: set[int] = set()
    if user.is_authenticated:
        waiting, _ = games_in_progress(user)
        live_games = _live_games_of(user)
        own = {row["game_id"] for row in live_games}
        context.update(your_turn=waiting[:ROWS], your_turn_more=max(0, len(waiting) - ROWS),
                       playing=live_games[:ROWS], playing_more=max(0, len(live_games) - ROWS))
    context["live"] = _live_game(own)
    if request.htmx and request.GET.get("live") == "next":  # the game shown ended: the next one
        return render(request, "pages/home.html#live", context)
    return render(request, "pages/home.html", context)


PREFIX = "cpu"  # the lobby's prefix for its computer form, whose view takes this one's post
CARRIED = (*RULE_FIELDS, "hints", "private")
FORM_DEFAULTS = {name: False if (value := ComputerGameForm.base_fields[name].initial) is None else value
                 for name in ("level", *CARRIED)}


def _computer(user) -> dict:
    """The one-click game against the computer: the strength to tap and the house rules the player
    last chose, carried as the lobby's form fields (``new_computer_game`` checks them as it does
    the lobby's form)."""
    values = {**FORM_DEFAULTS, **computer_defaults(user)}
    # An unticked box is sent as nothing, as the browser sends it (a 0 is a value: 0 == False).
    hidden = [(f"{PREFIX}-{name}", "on" if values[name] is True else values[name]) for name in CARRIED
              if values[name] is not False and values[name] is not None and values[name] != ""]
    rules = Game(**{name: values[name] for name in CARRIED if name != "private"})
    words = rules.rules_summary() + (["private"] if values["private"] else [])
    return {
        "level": values["level"], "level_name": f"{PREFIX}-level",
        "levels": ComputerLevel.choices, "hidden": hidden, "rules": ", ".join(words),
    }


def _live_games_of(user) -> list[dict]:
    """The player's games at the table now, each with its opponents and scores (two queries)."""
    rows = list(Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE, days_per_move=0)
                .order_by("-updated_at").values_list("id", "state__scores")[:20])
    ids = [game_id for game_id, _ in rows]
    others: dict[int, list[str]] = {}
    mine: dict[int, int] = {}
    for game_id, index, user_id, name, level in (Seat.objects.filter(game_id__in=ids).order_by("index")
                                                 .values_list("game_id", "index", "user_id", "user__username",
                                                              "computer_level")):
        if user_id == user.pk:
            mine[game_id] = index
        else:
            others.setdefault(game_id, []).append(public_name(name) if name else f"the computer ({level})")
    out = []
    for game_id, scores in rows:
        scores = list(scores or [])
        side = mine.get(game_id, 0) % max(1, len(scores))
        theirs = [s for i, s in enumerate(scores) if i != side]
        score = f"{scores[side]}–{max(theirs)}" if scores and theirs else ""
        out.append({"game_id": game_id, "url": game_url("game", game_id),
                    "against": ", ".join(others.get(game_id, [])), "score": score})
    return out


def _live_game(own: set[int]) -> dict | None:
    """The game the page shows being played, and its spectator's board: the first of the list of
    games to watch (people before the computer), other than the reader's own (``own``)."""
    stamp = watching.current_stamp()
    key = f"home-live:{stamp}"
    candidates = shared_cache.kept(key, watching.DOING)
    if candidates is None:
        candidates = [g.game_id for g in watching.by_interest(watching.live_games(limit=8))]
        shared_cache.keep(key, candidates, watching.KEEP_SECONDS, watching.DOING)
    game_id = next((pk for pk in candidates if pk not in own), None)
    game = Game.objects.for_play(game_id) if game_id else None
    if game is None or game.private or game.state is None:
        return None
    names = game.seat_names()
    return {"game": game, "board": watch_html(game), "names": " v ".join(names),
            "url": game_url("watch_game", game.pk)}


def _puzzle() -> Puzzle | None:
    """Today's puzzle, as its own page finds it: chosen by the midnight job, or by a request once
    that job is late; in the first moments of a day, none yet (the section links its page)."""
    day = puzzle_clock.today()
    found = Puzzle.objects.filter(day=day).first()
    if found is not None or not puzzle_services.scheduler_late():
        return found
    try:
        return puzzle_services.puzzle_for(day, late=True)
    except Exception:  # noqa: BLE001 - the first screen stands without its puzzle
        log.warning("no puzzle for the home page", exc_info=True)
        return None
