"""The game socket's heartbeats and the channel layer's outages: a lost push made good on the next
beat, a socket whose beats do not come back through the layer closed, the game's version heard on
every beat, and boards that catch up when the layer delivers again (or follow the moves a little
later while it is away)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import OperationalError

from games.play import services
from tests.play.socket_support import (
    _connect,
    _drain,
    _headers_for,
    _is_beat,
    _receive_board,
    _two_player_game,
    _version,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_lost_push_is_made_good_on_the_next_heartbeat(monkeypatch):
    """A push lost between workers (a Redis blip) while the page's socket stays open would leave
    the player waiting for a move already made: the socket's heartbeat sees the newer version and
    sends the board. A heartbeat with nothing new sends nothing."""
    from games.play import presence

    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.2)
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    h_alice, = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    await _receive_board(sock)
    await _drain(sock)

    async def lost(group, message):
        return None

    monkeypatch.setattr(get_channel_layer(), "group_send", lost)
    await sync_to_async(services.game_act)(user=bob, game_id=game.pk, version=game.version,
                                           action={"type": "cut_for_deal", "position": "5"})
    assert _version(await _receive_board(sock)) == game.version + 1
    assert not [m for m in await _drain(sock) if 'id="board"' in m]
    await sock.disconnect(timeout=10)


async def test_a_socket_whose_heartbeats_do_not_come_back_through_the_layer_is_closed(monkeypatch):
    """Every third heartbeat also goes through the channel layer to the socket itself. If one has not
    come back by the next such, pushes are not arriving either (a layer whose subscription broke): the socket
    is closed with 1013, which the page answers with "Reconnecting…" and a new socket."""
    from games.play import presence

    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.2)
    game, alice, _bob, _ = await sync_to_async(_two_player_game)()
    h_alice, = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    await _receive_board(sock)
    await _drain(sock)  # several heartbeats come and go: the socket stays open
    await sock.disconnect(timeout=10)
    layer = get_channel_layer()
    real_send = layer.send

    async def dropping(channel, message):
        if message.get("type") != "game.beat":
            await real_send(channel, message)

    async def hanging(channel, message):
        await asyncio.sleep(60)  # a Redis that stops answering without closing the connection

    def database_down(*args, **kwargs):
        raise OperationalError("the database cannot be reached")

    for broken, database in ((dropping, False), (hanging, False), (dropping, True)):
        sock = await _connect(game.pk, h_alice)
        await _receive_board(sock)
        monkeypatch.setattr(layer, "send", broken)
        if database:  # the heartbeat's database work fails every time: the beat still goes on
            monkeypatch.setattr(presence, "heartbeats", database_down)
        for _ in range(20):
            output = await sock.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                break
        assert output == {"type": "websocket.close", "code": 1013}, broken.__name__
        await sock.disconnect(timeout=10)  # the page's side of the close
        monkeypatch.setattr(layer, "send", real_send)


async def test_the_page_hears_the_game_s_version_on_every_heartbeat(monkeypatch):
    """The page's own heartbeat: a page behind the version asks for its board, and a page that
    hears nothing for a few beats knows its socket is dead."""
    import json

    from games.play import presence

    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.2)
    game, alice, _bob, _ = await sync_to_async(_two_player_game)()
    h_alice, = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    for _ in range(50):
        message = await sock.receive_from(timeout=5)
        if _is_beat(message):
            break
    assert json.loads(message) == {"beat": game.version, "live": True}
    await sock.disconnect(timeout=10)


async def test_a_board_behind_catches_up_as_soon_as_the_layer_delivers_again(monkeypatch):
    """The channel layer stops delivering (Redis away): the page is told at once, a move made
    meanwhile is not pushed, and when the layer delivers again the board comes within a second or
    so, long before the next heartbeat."""
    import json

    from games.play import layer_watch, presence

    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 60)
    monkeypatch.setattr(layer_watch, "OUTAGE_POLL_SECONDS", 60)
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    h_alice, = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    await _receive_board(sock)
    layer = get_channel_layer()
    real_send, real_group_send = layer.send, layer.group_send

    async def refused(*args, **kwargs):
        raise ConnectionError("the channel layer cannot be reached")

    monkeypatch.setattr(layer, "send", refused)
    monkeypatch.setattr(layer, "group_send", refused)
    message = await sock.receive_from(timeout=5)
    assert json.loads(message) == {"beat": game.version, "live": False}
    await sync_to_async(services.game_act)(user=bob, game_id=game.pk, version=game.version,
                                           action={"type": "cut_for_deal", "position": "5"})
    assert await _drain(sock) == []  # the push is lost

    loop = asyncio.get_running_loop()
    back = loop.time()
    monkeypatch.setattr(layer, "send", real_send)
    monkeypatch.setattr(layer, "group_send", real_group_send)
    assert _version(await sock.receive_from(timeout=5)) == game.version + 1
    assert loop.time() - back < 2
    assert json.loads(await sock.receive_from(timeout=5)) == {"beat": game.version + 1, "live": True}
    await sock.disconnect(timeout=10)


async def test_while_the_layer_is_away_boards_follow_the_moves_a_little_later(monkeypatch):
    """Moves still commit over HTTP while Redis is away: the process reads its games' versions
    every OUTAGE_POLL_SECONDS and the sockets behind draw their boards."""
    import json

    from games.play import layer_watch, presence

    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 60)
    monkeypatch.setattr(layer_watch, "OUTAGE_POLL_SECONDS", 0.5)
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    h_alice, = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    await _receive_board(sock)
    layer = get_channel_layer()

    async def refused(*args, **kwargs):
        raise ConnectionError("the channel layer cannot be reached")

    monkeypatch.setattr(layer, "send", refused)
    monkeypatch.setattr(layer, "group_send", refused)
    assert json.loads(await sock.receive_from(timeout=5))["live"] is False
    await sync_to_async(services.game_act)(user=bob, game_id=game.pk, version=game.version,
                                           action={"type": "cut_for_deal", "position": "5"})
    assert _version(await _receive_board(sock)) == game.version + 1
    await sock.disconnect(timeout=10)
