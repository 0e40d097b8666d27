"""The play app's task (Django's task framework; ``games.queue``'s worker runs it): the computer's
turns in a game at your own pace. A move that leaves a computer seat to act sends
``signals.computer_due`` in its own transaction; ``on_computer_due`` writes the task's row there, so
a move rolled back sends for nothing and a move committed cannot lose it. Nobody need be at a board
for the computer to move, and the person's answer waits on none of its thinking.

The task is safe twice (a worker that died may run it again): ``services.game_computer_turns``
makes nothing once the game has moved on from the version it was sent for.
"""

from __future__ import annotations

import logging

from django_tasks import task

from games.play import services

log = logging.getLogger("games.actions")


def on_computer_due(sender, *, game, **kwargs) -> None:
    """In the move's transaction: the task that makes the computer's turns from this version."""
    computer_turns.enqueue(game.pk, game.version)


@task()
def computer_turns(game_id: int, version: int) -> str:
    """The computer's turns in game ``game_id`` from ``version``; what came of it."""
    try:
        made = services.game_computer_turns(game_id=game_id, version=version)
    except services.ServiceError as exc:  # the game is gone, or a move raced this one's write
        log.info("game=%s action=computer_turns version=%s stopped: %s", game_id, version, exc.message)
        return "stopped"
    return f"{made} made"
