"""games.infra.loop_send: a request's thread hands a push to its server's loop and waits a moment."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import pytest
from asgiref.sync import SyncToAsync, sync_to_async

from games.infra import loop_send

pytestmark = pytest.mark.timeout(20)


def test_a_thread_that_sync_to_async_runs_knows_its_loop():
    """The asgiref invariant this relies on: sync_to_async's thread records the loop it serves."""

    async def main():
        return asyncio.get_running_loop(), await sync_to_async(loop_send.serving_loop)()

    running, seen = asyncio.run(main())
    assert seen is running
    assert loop_send.serving_loop() is None  # this thread serves no loop


@pytest.fixture
def loop():
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=5)
    loop.close()


def test_the_send_runs_on_the_loop_and_a_slow_one_is_not_waited_for(loop):
    ran = []

    async def quick():
        ran.append(asyncio.get_running_loop())

    loop_send.send_on_loop(loop, quick, "game-1", wait=1)
    assert ran == [loop]

    async def slow():
        await asyncio.sleep(2)

    started = time.perf_counter()
    loop_send.send_on_loop(loop, slow, "game-1", wait=0.05)
    assert time.perf_counter() - started < 1


def test_a_failed_send_is_logged_not_raised(loop, caplog):
    async def broken():
        raise ConnectionError("redis is down")

    with caplog.at_level(logging.WARNING, logger="games.play.broadcast"):
        loop_send.send_on_loop(loop, broken, "game-7", wait=1)
        time.sleep(0.1)
    assert "push to game-7 failed" in caplog.text


def test_a_stopped_loop_is_told_from_a_running_or_closed_one():
    loop = asyncio.new_event_loop()
    SyncToAsync.threadlocal.main_event_loop = loop
    try:
        assert loop_send.stopped_loop() and loop_send.serving_loop() is None
        loop.close()
        assert not loop_send.stopped_loop()
    finally:
        del SyncToAsync.threadlocal.main_event_loop
