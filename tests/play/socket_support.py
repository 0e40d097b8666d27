"""Helpers for the game socket tests: a two-player game and its players' handshake headers, a
socket opened on it, and what it is sent (the boards, the heartbeats, everything until it is quiet)."""

from __future__ import annotations

import asyncio
import re

from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from cribsite.asgi import application
from games.engine.rules import HouseRules
from games.play import services
from tests.play.factories import socket_headers


def _two_player_game():
    alice = User.objects.create_user("alice", password="x")
    bob = User.objects.create_user("bob", password="x")
    carol = User.objects.create_user("carol", password="x")
    game = services.game_create_seek(user=alice, rules=HouseRules())
    game = services.game_accept(user=bob, game_id=game.pk)
    return game, alice, bob, carol


def _headers_for(*users):
    return [socket_headers(u) for u in users]


# Sockets are closed with ``disconnect(timeout=10)`` throughout the tests: with the default 1 s, a
# slow close under load is cancelled half-way, which leaves channels_redis holding a receive lock
# bound to this test's event loop, and every later socket test in the process fails on it.


async def _connect(game_id: int, headers) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def _version(html: str) -> int:
    return int(re.search(r'id="board"[^>]*data-version="(\d+)"', html).group(1))


async def _receive_board(communicator: WebsocketCommunicator) -> str:
    """The next board pushed to this socket (presence and chat fragments come on it too)."""
    for _ in range(100):  # presence, chat and heartbeats come on it too
        html = await communicator.receive_from(timeout=5)
        if 'id="board"' in html:
            return html
    raise AssertionError("no board arrived")


def _is_beat(message: str) -> bool:
    return message.startswith('{"beat"')


async def _drain(communicator: WebsocketCommunicator) -> list[str]:
    """Whatever this socket is sent, its heartbeats aside, until it has been quiet for a moment."""
    loop = asyncio.get_running_loop()
    got, last = [], loop.time()
    while loop.time() - last < 0.5:
        if await communicator.receive_nothing(timeout=0.1):
            continue
        message = await communicator.receive_from(timeout=1)
        if not _is_beat(message):
            got.append(message)
            last = loop.time()
    return got
