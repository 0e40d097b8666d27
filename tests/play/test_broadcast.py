"""Pushes from a request: sent by the server's event loop before the answer is drawn (or, with a
slow layer, after it), never raised to it."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.play import broadcast


@pytest.mark.asyncio
async def test_a_request_thread_hands_its_push_to_the_loop_and_waits_for_it_only_a_moment(monkeypatch):
    layer, release, sent = get_channel_layer(), asyncio.Event(), []

    async def slow_group_send(group, message):
        await release.wait()  # Redis answering slowly, or not at all
        sent.append((group, message["version"]))

    monkeypatch.setattr(layer, "group_send", slow_group_send)
    started = time.monotonic()
    await asyncio.wait_for(sync_to_async(broadcast.game_changed)(7, 3), 5)  # back before it is sent
    assert sent == []
    assert broadcast.PUSH_WAIT_SECONDS <= time.monotonic() - started < 1
    release.set()
    for _ in range(50):
        if sent:
            break
        await asyncio.sleep(0.01)
    assert sent == [("game-7", 3)]


@pytest.mark.asyncio
async def test_a_request_thread_goes_on_once_its_push_is_sent(monkeypatch):
    """The push is on its way before the thread draws its answer (and holds the interpreter)."""
    layer, sent = get_channel_layer(), []

    async def group_send(group, message):
        await asyncio.sleep(0)  # a layer's send yields to the loop at least once
        sent.append((group, message["version"]))

    monkeypatch.setattr(layer, "group_send", group_send)

    def move_then_draw() -> list:
        broadcast.game_changed(8, 4)
        return list(sent)  # what had been sent when the thread went on

    started = time.monotonic()
    assert await sync_to_async(move_then_draw)() == [("game-8", 4)]
    assert time.monotonic() - started < broadcast.PUSH_WAIT_SECONDS


@pytest.mark.asyncio
async def test_a_push_that_fails_on_the_loop_is_logged_not_raised(monkeypatch, caplog):
    layer = get_channel_layer()

    async def unreachable(group, message):
        raise ConnectionError("the channel layer cannot be reached")

    monkeypatch.setattr(layer, "group_send", unreachable)
    with caplog.at_level(logging.WARNING, logger="games.play.broadcast"):
        await sync_to_async(broadcast.lobby_changed)()
        for _ in range(50):
            if "push to lobby failed" in caplog.text:
                break
            await asyncio.sleep(0.01)
    assert "push to lobby failed" in caplog.text


def test_outside_a_server_the_push_is_sent_before_returning(monkeypatch):
    layer, sent = get_channel_layer(), []

    async def group_send(group, message):
        sent.append(group)

    monkeypatch.setattr(layer, "group_send", group_send)
    broadcast.presence_changed(5)  # a management command or a synchronous test: no loop to hand it to
    assert sent == ["game-5"]
