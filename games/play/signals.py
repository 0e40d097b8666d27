"""Signals other parts of the site (history, ratings, tournaments, correspondence) listen to.

They are sent inside the service's transaction (``game_finished`` after the final state is written),
so a listener's writes (a rating, a tournament result) and the pushes it asks for on commit happen
or not together with the game's move. A listener that can fail is connected through ``guarded``:
its writes then run in a savepoint of their own, and a fault in them is rolled back and logged
while the move stands. Otherwise one bug in pairing would refuse the last move of every game.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger("games.play.signals")

game_finished = Signal()  # kwargs: game (a finished games.play.models.Game)
# A finished game's result was replaced by one the director entered (games.play.game_result):
# what was derived from the old one (the history's rows) is derived again.
result_entered = Signal()  # kwargs: game (a finished games.play.models.Game)
# A new deal was dealt, so the scores of the one before are counted (tournament pages show them).
deal_started = Signal()  # kwargs: game (games.play.models.Game), game_no, deal_no
# A player opened a game's board (its socket connected): organisers start a clock that waits for
# both players to be at the table (games.tournaments).
player_arrived = Signal()  # kwargs: game_id, user
# A seated player was served the board of an organised game (a page, socket or not): organisers take
# down their "your match is ready" (games.tournaments).
board_served = Signal()  # kwargs: game_id, user
# A game at your own pace (``Game.days_per_move``) began, or a move was made in one: sent in the
# transaction that started it or made the move, after the game is written, for the app that keeps
# its clocks (games.correspondence). Its receivers write with the move or not at all: not guarded.
correspondence_started = Signal()  # kwargs: game, state (the engine's), by (the user id who started it)
correspondence_moved = Signal()  # kwargs: game, state (after the move), actor (the seat), quiet (user id)
# A move in a game at your own pace left a computer seat to act (in the move's transaction): its
# turns are enqueued as a task (games.play.tasks), made by the task worker.
computer_due = Signal()  # kwargs: game (games.play.models.Game, at the version the move gave it)
# A game was called off (games.play.services.endings.game_abort), in that transaction.
game_aborted = Signal()  # kwargs: game
# A player started a game against the computer: the account remembers how, for the next one.
computer_game_created = Signal()  # kwargs: game (games.play.models.Game), user


def guarded(receiver: Callable[..., None]) -> Callable[..., None]:
    """``receiver`` in a savepoint of its own: what it wrote is undone if it raises, and the error
    is logged instead of failing the move that sent the signal. Connect the result with
    ``weak=False`` (nothing else holds it)."""

    @functools.wraps(receiver)
    def run(sender, **kwargs) -> None:
        try:
            with transaction.atomic():
                receiver(sender, **kwargs)
        except Exception:
            game = kwargs.get("game")
            log.exception(
                "receiver=%s.%s game=%s failed; its writes are undone and the move stands",
                receiver.__module__, receiver.__qualname__, getattr(game, "pk", kwargs.get("game_id")),
            )

    return run
