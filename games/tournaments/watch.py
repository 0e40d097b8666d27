"""Watching a tournament match: a read-only board for anyone, with only what the table shows.

A spectator sees what every player can see (``games.engine.view.public_view``): the scores and pegs,
the cut, the starter, every card laid in the play, each hand and the crib once its count begins,
the deal's log, and how many cards each player holds, face down. It is the players' board, drawn
for no seat (``play/board/spectator.jinja``). Only tournament games can be watched: a friendly
game stays private to its players."""

from __future__ import annotations

from django.utils.safestring import SafeString

from games.engine.view import public_view
from games.play import components
from games.play.board.player import turn_clock
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
from games.play.services import load_state
from games.tournaments.organised_games import for_game


def match_of(game: Game):
    """The tournament match ``game`` is played for, or None."""
    return game.tournament_matches.select_related("tournament").first()


def watchable_game(game_id: int) -> Game | None:
    """The game, if it is a two-player tournament game that has begun."""
    game = Game.objects.for_play(game_id)
    if game is None or game.state is None or game.players != 2 or match_of(game) is None:
        return None
    return game


def watch_context(game: Game) -> dict:
    v = public_view(load_state(game))
    names = list(game.seat_names())
    sides = side_names(v, names)
    table = table_of(game, names, None)
    finished = game.status == Game.Status.FINISHED
    final = final_result(game) if finished else None
    result = result_summary(v, table, for_game(game) if v.result else None, None, final)
    lines = off_board(log_lines(table, v.log), result)
    return with_entered({
        **table_context(v, names, None, log=lines, result=result),
        "game": game,
        "tracks": tracks(v, sides, None, final),
        # A timed tournament: who is on the clock, for spectators too (only a player's page asks
        # the server to act when it runs out).
        "clock": clock_for_spectators(game, v, names),
    }, final)


def clock_for_spectators(game: Game, v, names: list[str]) -> dict | None:
    clock = turn_clock(game, v, names)
    return None if clock is None else {k: clock[k] for k in ("who", "deadline", "remaining_s", "strikes")}


def watch_html(game: Game, *, oob: bool = False) -> SafeString:
    return components.render("play/board/spectator.jinja", {**watch_context(game), "oob": oob})


def render_watch_oob(game_id: int) -> str | None:
    """The spectator's board for a websocket push, or None if the game cannot be watched."""
    game = watchable_game(game_id)
    return None if game is None else watch_html(game, oob=True)
