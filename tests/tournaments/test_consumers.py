"""The tournament socket: anyone watching is pushed the live part, rendered for their own user."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application
from games.tournaments import services
from tests.play.factories import socket_headers

from .helpers import active_matches, make_players, make_tournament, resign_match

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _setup():
    players = make_players(4)
    t = make_tournament(players, format="ko")
    services.tournament_start(tournament_id=t.pk)
    return t, players


async def test_watchers_are_pushed_the_page_when_a_match_ends():
    t, players = await sync_to_async(_setup)()
    player_headers = await sync_to_async(socket_headers)(players[0])
    watcher = WebsocketCommunicator(application, f"/ws/tournament/{t.pk}/", headers=socket_headers())
    player = WebsocketCommunicator(application, f"/ws/tournament/{t.pk}/", headers=player_headers)
    assert (await watcher.connect())[0] and (await player.connect())[0]
    first = await watcher.receive_from()
    assert 'id="tournament-live"' in first and 'hx-swap-oob="morph"' in first
    assert "Your next match" not in first  # an anonymous watcher has none
    mine = await player.receive_from()
    assert "Your next match" in mine  # p1 (seed 1) plays the first semi-final

    def finish_a_semi():
        m = next(m for m in active_matches(t) if m.entrant1.user == players[0])
        resign_match(m, m.entrant1)

    await sync_to_async(finish_a_semi)()
    pushed = await watcher.receive_from(timeout=5)
    assert "p1 wins 1–0" in pushed
    await player.receive_from(timeout=5)
    await watcher.disconnect(timeout=10)
    await player.disconnect(timeout=10)


async def test_unknown_tournament_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/tournament/999/", headers=socket_headers())
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect(timeout=10)
