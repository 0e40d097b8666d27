"""A push from a request that outlives its server's event loop is dropped, not waited for forever."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest
from asgiref.sync import SyncToAsync

from games.play import broadcast

pytestmark = pytest.mark.timeout(20)


def _push_from_a_request_thread(loop: asyncio.AbstractEventLoop) -> threading.Thread:
    def request():
        SyncToAsync.threadlocal.main_event_loop = loop  # as asgiref's sync_to_async sets it
        try:
            broadcast.game_changed(1, 2)
        finally:
            del SyncToAsync.threadlocal.main_event_loop

    thread = threading.Thread(target=request, daemon=True)
    thread.start()
    thread.join(timeout=5)
    return thread


def test_a_push_after_the_loop_stopped_is_dropped_with_a_warning(caplog):
    loop = asyncio.new_event_loop()  # made and stopped, never closed: a worker shutting down
    try:
        with caplog.at_level(logging.WARNING, logger="games.play.broadcast"):
            thread = _push_from_a_request_thread(loop)
        assert not thread.is_alive(), "the push waited for a loop that will never run again"
        assert "dropped: the server is stopping" in caplog.text
    finally:
        loop.close()


def test_a_push_after_the_loop_closed_still_goes(caplog):
    loop = asyncio.new_event_loop()
    loop.close()  # async_to_sync notices a closed loop and sends on one of its own
    with caplog.at_level(logging.WARNING, logger="games.play.broadcast"):
        thread = _push_from_a_request_thread(loop)
    assert not thread.is_alive()
    assert "dropped" not in caplog.text and "failed" not in caplog.text
