"""Sends that wait on another server (a mail server, the browsers' push services), made after the
move's answer has gone, on one thread of this process's own.

A turn notice decided by a move used to go in that move's after-commit work, on the request's
thread: a mail server that answered slowly held the mover's answer as long (and a thread that
serves requests with it). Here the move only queues the send. The queue lives in the process: a
worker killed with notices still queued loses them, and the daily digest still lists the games
waiting on each player. ``SENDS_IN_BACKGROUND`` off (the test suite) sends at once, in order.
"""

from __future__ import annotations

import contextvars
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)


@functools.cache
def _executor() -> ThreadPoolExecutor:
    # One thread: sends keep their order, and the database pool needs one connection more, not many.
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="outbox")


_pending: set = set()


def send_later(send: Callable[..., object], *args) -> None:
    """Run ``send(*args)`` after this answer, on the outbox's thread; a failure is logged there."""
    if not settings.SENDS_IN_BACKGROUND:
        send(*args)
        return
    # In the request's context: what it set for the work after it (the origin emails link to) holds.
    future = _executor().submit(contextvars.copy_context().run, _run, send, args)
    _pending.add(future)
    future.add_done_callback(_pending.discard)


def _run(send: Callable[..., object], args: tuple) -> None:
    try:
        send(*args)
    except Exception:  # noqa: BLE001 - nobody waits for this send: the log is where it is seen
        log.exception("outbox: %s failed", getattr(send, "__qualname__", send))
    finally:
        connections.close_all()  # this thread's own: given back to the pool, not kept idle


def wait_until_sent(timeout: float | None = None) -> bool:
    """Wait for every send queued so far; True when none is left (tests, and a process stopping)."""
    done, not_done = wait(list(_pending), timeout=timeout)
    return not not_done
