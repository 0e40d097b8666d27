"""The menu's "Your turn (N)" follows the games on every open page: a move at your own pace tells the
pages of both its players (the group of each, a message with no count and no game in it), each page's
socket draws its own user's count, and nobody else's page hears of it."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application
from games.play import broadcast
from tests.correspondence.conftest import player
from tests.correspondence.support import correspondence_game, move_once, passing_move
from tests.play.factories import act, as_form, socket_headers

COUNT = '<span id="your-turn-count" hx-swap-oob="true">{}</span>'


@pytest.mark.django_db
def test_a_move_tells_the_pages_of_its_two_players_and_no_one_else(monkeypatch, on_commit):
    alice, bob, carol, dave = (player(n) for n in ("alice", "bob", "carol", "dave"))
    game = correspondence_game(alice, bob)
    move_once(correspondence_game(carol, dave), {0: carol, 1: dave}, seat=1)  # a game waiting on carol
    users = {0: alice, 1: bob}
    mine = passing_move(game, users, random.Random(1))  # alice's, passing the turn to bob
    sent = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, message: sent.append((group, message)))
    on_commit(act, game, alice, as_form(mine))
    turns = [(group, message) for group, message in sent if message["type"] == "player.turns"]
    assert sorted(group for group, _ in turns) == sorted([broadcast.player_group(alice.pk),
                                                          broadcast.player_group(bob.pk)])
    assert all(message == {"type": "player.turns"} for _, message in turns)  # no count, no game


async def _socket(user, path: str = "/ws/news/") -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, path, headers=await sync_to_async(socket_headers)(user))
    assert (await socket.connect())[0]
    return socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_each_open_page_is_pushed_its_own_players_new_count():
    alice, bob, carol, dave = [await sync_to_async(player)(n) for n in ("alice", "bob", "carol", "dave")]
    game = await sync_to_async(correspondence_game)(alice, bob)
    other = await sync_to_async(correspondence_game)(carol, dave)
    await sync_to_async(move_once)(other, {0: carol, 1: dave}, seat=1)
    users = {0: alice, 1: bob}
    mine = await sync_to_async(passing_move)(game, users, random.Random(1))
    bobs, bobs_lobby, carols = await _socket(bob), await _socket(bob, "/ws/lobby/"), await _socket(carol)
    try:
        assert await bobs.receive_from(timeout=10) == COUNT.format("")  # on connect: nothing waits on bob
        assert await carols.receive_from(timeout=10) == COUNT.format(" (1)")
        await sync_to_async(act)(game, alice, as_form(mine))
        assert await bobs.receive_from(timeout=10) == COUNT.format(" (1)")
        assert await bobs_lobby.receive_from(timeout=10) == COUNT.format(" (1)")  # the lobby's own socket
        assert await carols.receive_nothing(timeout=0.5)
        assert await bobs.receive_nothing(timeout=0.2)
    finally:
        for socket in (bobs, bobs_lobby, carols):
            await socket.disconnect(timeout=10)
