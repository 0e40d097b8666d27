"""A soak's bot goes through a worker restart as a page does: its socket reconnects and catches up.

The worker is played by a bare websockets server on 127.0.0.1 that, like the game consumer, sends
the current board on every connect."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from websockets.asyncio.server import serve

from bench.load import bots
from bench.load.bots import Bot, Level


def board(version: int) -> str:
    return f'<div id="board" class="board-page phase-play" data-version="{version}"></div>'


async def wait_for(condition, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the bot did not get there in time")


@pytest.mark.asyncio
async def test_a_dropped_socket_reconnects_and_gets_the_current_board(monkeypatch):
    monkeypatch.setattr(bots, "RECONNECT_FIRST", 0.1)
    game = {"version": 3, "connections": 0}

    async def consumer(ws) -> None:
        game["connections"] += 1
        await ws.send(board(game["version"]))
        if game["connections"] == 1:
            game["version"] = 5  # moves made while the bot's socket is down
            await ws.close(code=1011)
            return
        await ws.wait_closed()

    async with serve(consumer, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        level = Level(games=1, duration=10, think=(0, 0), reconnect=True, error_times=[])
        bot = Bot(0, f"http://127.0.0.1:{port}")
        bot.session = aiohttp.ClientSession()
        try:
            await bot.open_socket(7, level)
            await wait_for(lambda: bot.version == 5)
            assert bot.connected.is_set() and game["connections"] == 2
            assert dict(level.errors) == {"socket_closed": 1}
            assert [v for v, _ in bot.arrivals] == [3, 5]
        finally:
            level.stop.set()
            await bot.close()


@pytest.mark.asyncio
async def test_a_bot_keeps_trying_says_so_after_a_while_and_is_back_when_the_worker_is(monkeypatch):
    monkeypatch.setattr(bots, "RECONNECT_FIRST", 0.1)
    monkeypatch.setattr(bots, "RECONNECT_MOST", 0.2)
    monkeypatch.setattr(bots, "RECONNECT_SECONDS", 1.0)
    version = {"now": 1}

    async def consumer(ws) -> None:
        await ws.send(board(version["now"]))
        await ws.wait_closed()

    server = await serve(consumer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    level = Level(games=1, duration=10, think=(0, 0), reconnect=True, error_times=[])
    bot = Bot(0, f"http://127.0.0.1:{port}")
    bot.session = aiohttp.ClientSession()
    try:
        await bot.open_socket(7, level)
        await wait_for(lambda: bot.version == 1)
        server.close()  # the worker is gone: nothing listens on its port for a while
        await server.wait_closed()
        await wait_for(lambda: level.errors.get("reconnect_slow"))
        assert not bot.connected.is_set()
        version["now"] = 4
        async with serve(consumer, "127.0.0.1", port):  # its successor, on the same port
            await wait_for(lambda: bot.version == 4)
            assert bot.connected.is_set()
            assert [kind for _, kind in level.error_times] == ["socket_closed", "reconnect_slow"]
    finally:
        level.stop.set()
        await bot.close()


@pytest.mark.asyncio
async def test_a_level_bot_does_not_reconnect():
    async def consumer(ws) -> None:
        await ws.send(board(1))
        await ws.close(code=1011)

    async with serve(consumer, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        level = Level(games=1, duration=10, think=(0, 0))
        bot = Bot(0, f"http://127.0.0.1:{port}")
        bot.session = aiohttp.ClientSession()
        try:
            await bot.open_socket(7, level)
            await wait_for(lambda: bot.reader.done())
            assert dict(level.errors) == {"socket_closed": 1} and bot.version == 1
        finally:
            level.stop.set()
            await bot.close()
