"""A push handed from a request's thread to the server's event loop, waited for only a moment.

Channels' way from synchronous code, ``async_to_sync(layer.group_send)``, holds the request's
thread until the send is done. Under ``bench.load`` at 50 games that collapsed the site (9 moves/s
instead of 43, medians of 4 s: every request thread waiting on the loop, and the loop on Redis).
Here the thread schedules the send on the loop and waits at most ``wait`` seconds: long enough
that the send usually leaves before the thread takes the interpreter's lock back to draw its
answer, short enough that a slow or absent Redis costs a move no more.

What it relies on in asgiref: a thread that ``sync_to_async`` runs has the event loop it came from
in ``SyncToAsync.threadlocal.main_event_loop`` (what ``async_to_sync`` itself reads to hop back).
``tests/play/test_push_at_shutdown.py`` and ``tests/infra/test_loop_send.py`` fail if that changes.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Awaitable, Callable

from asgiref.sync import SyncToAsync

from games.infra import outages

log = logging.getLogger("games.play.broadcast")


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose ``sync_to_async`` runs this thread, or None outside one (a
    management command, a synchronous test)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def stopped_loop() -> bool:
    """This thread came from an event loop that has stopped but is not closed (a worker shutting
    down mid-request): ``async_to_sync`` would hand it work and wait forever."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop is not None and not loop.is_running() and not loop.is_closed()


def send_on_loop(loop: asyncio.AbstractEventLoop, send: Callable[[], Awaitable], what: str,
                 wait: float) -> None:
    """Run ``send()`` on ``loop`` (sends keep their order there), waiting at most ``wait`` seconds;
    a failure is logged when it comes, never raised: a push is best effort."""
    try:
        future = asyncio.run_coroutine_threadsafe(send(), loop)
    except RuntimeError:  # the loop closed under us: the server is stopping
        log.warning("push to %s dropped: the server is stopping", what)
        return

    def check(done: concurrent.futures.Future) -> None:
        if done.cancelled():
            return
        if done.exception() is not None:  # logged once an outage (the outages filter)
            log.warning("push to %s failed", what, exc_info=done.exception())
        else:
            outages.layer.delivered()

    future.add_done_callback(check)
    concurrent.futures.wait([future], timeout=wait)
