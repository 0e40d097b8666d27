"""The spectator's board: what the table shows everyone, for anyone watching a game.

A spectator sees what every player can see (``games.engine.view.public_view``): the scores and pegs,
the cut, the starter, every card laid in the play, each hand and the crib once its count begins,
the deal's log, and how many cards each player holds, face down. It is the players' board, drawn
for no seat (``play/board/spectator.jinja``). Any game that has begun may be watched unless a player
made it private; a private game is its players' alone. The board is the same for every spectator,
so it is drawn once for each version of the game and kept (``SHARED_SECONDS``) for the others.
"""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe

from games.engine.view import public_view
from games.infra import shared_cache
from games.play import components
from games.play.board.player import turn_timer_panel
from games.play.board.table import (
    off_board,
    result_summary,
    side_names,
    table_context,
    table_of,
    tracks,
    with_entered,
)
from games.play.game_result import final_result
from games.play.models import Game
from games.play.narration import log_lines
from games.play.registry import organiser_of
from games.play.services import load_state

PRIVATE = "This game is private: only its players can see it."
NOT_BEGUN = "This game has not begun yet: there is nothing to watch."
CALLED_OFF = "This game was called off before it was played: there is nothing to watch."
# A board drawn for one version serves every spectator of that version for this long.
SHARED_SECONDS = 120


def refusal(game: Game | None, user=None) -> str | None:
    """Why ``user`` may not watch ``game`` (None: they may). Its players always may."""
    if game is not None and game.status == Game.Status.ABORTED:
        return CALLED_OFF
    if game is None or game.state is None or game.status == Game.Status.WAITING:
        return NOT_BEGUN
    if game.private and game.seat_of(user) is None:
        return PRIVATE
    return None


def watchable_game(game_id: int, user=None) -> Game | None:
    """The game with its seats, if ``user`` may watch it."""
    game = Game.objects.for_play(game_id)
    return game if refusal(game, user) is None else None


def watch_context(game: Game) -> dict:
    v = public_view(load_state(game))
    names = list(game.seat_names())
    sides = side_names(v, names)
    table = table_of(game, names, None)
    finished = game.status == Game.Status.FINISHED
    final = final_result(game) if finished else None
    result = result_summary(v, table, organiser_of(game) if v.result else None, None, final)
    lines = off_board(log_lines(table, v.log), result)
    return with_entered({
        **table_context(v, names, None, log=lines, result=result),
        "game": game,
        "tracks": tracks(v, sides, None, final),
        # A timed game: who is on the clock, for spectators too (only a player's page asks the
        # server to act when it runs out).
        "turn_timer": turn_timer_for_spectators(game, v, names),
    }, final)


def turn_timer_for_spectators(game: Game, v, names: list[str]) -> dict | None:
    timer = turn_timer_panel(game, v, names)
    return None if timer is None else {k: timer[k] for k in ("who", "deadline", "remaining_s", "strikes")}


def watch_html(game: Game, *, oob: bool = False) -> SafeString:
    """The spectator's board of ``game`` as it is now, shared by every spectator of its version.
    A timed game's turn timer counts down from when it is drawn, and an organised game's ending is its
    organiser's word, which may change beside the game: their boards are drawn for each."""
    if game.turn_timer or game.organised:
        return components.board("play/board/spectator.jinja", {**watch_context(game), "oob": oob})
    changed = game.updated_at.timestamp() if game.updated_at else 0
    key = f"spectator-board:{game.pk}:{game.version}:{changed}:{int(oob)}"
    html = shared_cache.kept(key, "a spectator's board")
    if html is None:
        html = str(components.board("play/board/spectator.jinja", {**watch_context(game), "oob": oob}))
        shared_cache.keep(key, html, SHARED_SECONDS, "a spectator's board")
    return mark_safe(html)  # drawn by the template above, which escapes what it shows


def render_watch_oob(game_id: int, user=None) -> str | None:
    """The spectator's board for a websocket push, or None if ``user`` may not watch the game."""
    game = watchable_game(game_id, user)
    return None if game is None else watch_html(game, oob=True)
