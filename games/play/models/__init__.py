"""Games, seats, deals and the append-only move log.

The ``Move`` log is the truth: replaying it through the engine from ``Game.secret`` rebuilds any
state. ``Game.state`` is a snapshot of the latest state for speed; only ``games.play.services`` writes it.

A game and its queries are ``game``'s; who sits at it and whose socket is open, ``seats``'; the move
log and the deals, ``moves``'. A game at your own pace has days per move (``Game.days_per_move``);
its clocks are ``games.correspondence``'s.
"""

from __future__ import annotations

from .game import Game, GameQuerySet, check_for_play, new_invite_token, new_secret
from .moves import Move, Round
from .seats import ComputerLevel, Connection, Seat, ServerProcess

__all__ = [
    "ComputerLevel", "Connection", "Game", "GameQuerySet", "Move", "Round", "Seat",
    "ServerProcess", "check_for_play", "new_invite_token", "new_secret",
]
