"""Watching a tournament match: the spectator's board (``games.play.board.spectator``) of a match's
game, reached from the tournament's page."""

from __future__ import annotations

from games.play.board.spectator import render_watch_oob, watch_html, watchable_game
from games.play.models import Game

__all__ = ["match_of", "match_game", "render_watch_oob", "watch_html"]


def match_of(game: Game):
    """The tournament match ``game`` is played for, or None."""
    return game.tournament_matches.select_related("tournament").first()


def match_game(game_id: int, user=None) -> Game | None:
    """The game, if it is a tournament match's game that has begun and ``user`` may watch."""
    game = watchable_game(game_id, user)
    return game if game is not None and match_of(game) is not None else None
