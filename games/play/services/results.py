"""A result the director enters for a game: a tournament match played on paper, or one corrected.

The game in play ends by a resignation made on the loser's behalf (the engine knows no other end),
with the entered result kept beside it (``games.play.game_result``); a finished game gets the
entered result in place of the one it had. Either way every screen shows the entered one, and the
history is written again from it (``result_entered``).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F

from games.engine.actions import Resign
from games.engine.state import side_count
from games.play.game_result import entered_result
from games.play.models import Game
from games.play.services.core import _after_commit, _apply, _lock
from games.play.services.errors import NotAvailable, ServiceError
from games.play.signals import result_entered

log = logging.getLogger("games.actions")


@transaction.atomic
def game_enter_result(
    *, game_id: int, winner: int, match_scores: list[int] | tuple[int, ...],
    scores: list[list[int]] | tuple = (),
) -> Game:
    """End ``game_id`` (or correct a finished one) on the director's result: ``winner`` the winning
    side, ``match_scores`` the games each side won, ``scores`` each game's scores by side where the
    director gave them (the first side's first). Two sides only: a tournament's matches."""
    game = _lock(game_id)
    sides = side_count(game.players)
    if sides != 2 or game.players != 2:
        raise ServiceError("Only a game between two players can have its result entered.")
    if winner not in (0, 1) or len(match_scores) != sides or any(len(s) != sides for s in scores):
        raise ServiceError("That result does not fit this game.")
    entered = entered_result(game.house_rules, winner, match_scores, scores)
    if game.status == Game.Status.ACTIVE:
        _apply(game, Resign(1 - winner), entered=entered)
    elif game.status == Game.Status.FINISHED:
        game.result = {**(game.result or {}), "entered": entered}
        game.winner_seat = winner
        Game.objects.filter(pk=game.pk).update(
            result=game.result, winner_seat=winner, version=F("version") + 1)
        game.version += 1
        result_entered.send(sender=Game, game=game)
        _after_commit(game)
    else:
        raise NotAvailable("This game has not started: there is no result to enter.")
    log.info("game=%s action=enter_result winner=%s games=%s", game.pk, winner, list(match_scores))
    return game
