"""A player in the middle of a tournament game learns of its cancellation on the board they have open."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application
from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.live.support import board_version
from tests.play.factories import socket_headers

from .helpers import active_matches, make_players, make_tournament

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

CANCELLED = "The tournament Club Cup was cancelled: this game no longer counts."


def _running_match():
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN, name="Club Cup")
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    return t, m, m.entrant1.user, Game.objects.get(pk=m.game_id).version


async def test_the_open_board_is_redrawn_with_the_cancellation():
    t, m, player, version = await sync_to_async(_running_match)()
    socket = WebsocketCommunicator(application, f"/ws/game/{m.game_id}/",
                                   headers=await sync_to_async(socket_headers)(player))
    assert (await socket.connect())[0]
    try:
        first = await socket.receive_from(timeout=10)  # the board as it is, on connecting
        assert board_version(first) == version and CANCELLED not in first
        await sync_to_async(services.tournament_cancel)(tournament_id=t.pk, reason="The hall is closed")
        pushed = await socket.receive_from(timeout=10)
        for _ in range(5):  # a presence line may be pushed first (the player's own arrival)
            if board_version(pushed) is not None:
                break
            pushed = await socket.receive_from(timeout=10)
        assert board_version(pushed) == version + 1
        assert CANCELLED in pushed.replace("&#39;", "'")
    finally:
        await socket.disconnect(timeout=10)
