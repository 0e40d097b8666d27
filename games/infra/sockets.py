"""What the site's websocket consumers use in place of two Channels defaults.

- ``database_sync_to_async``: Channels' helper runs every call on the process's one
  thread-sensitive thread, so every board render of every socket queued behind the others
  (``bench.load``: handshakes over 30 s). These calls are self-contained (their own connection,
  closed after), so they run on a pool of ``SOCKET_THREADS`` threads (``games.infra.threads``).
- ``Consumer``: Channels' consumer closes that thread's stale connections before every message
  it handles, a hop to the shared thread for every push, echo and heartbeat. These consumers never
  use that thread for the database, and their calls close their own connections. And a socket
  that meets the channel layer away (subscribing its channel, joining a group) is closed quietly,
  so that the page tries again, instead of ending in daphne's "Exception inside application"
  traceback, one per socket and reconnect while Redis is away (``outages`` logs the outage).

What it relies on in Channels and asgiref: ``AsyncConsumer.dispatch`` is where Channels adds the
clean-up and calls the handler ``get_handler_name(message)`` names; ``SyncToAsync.thread_handler``
runs each call in its thread (``tests/live`` and the browser suite use both on every socket;
``tests/infra/test_mirrored_sources.py`` pins the source of the two methods mirrored here);
``AsyncConsumer.__call__`` lets the layer's own exceptions out (``tests/infra/test_outages.py``).
"""

from __future__ import annotations

import contextlib

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import close_old_connections

from games.infra import outages
from games.infra.threads import socket_executor


class _SocketSyncToAsync(SyncToAsync):
    """channels' ``DatabaseSyncToAsync`` closes the thread's connections before and after each
    call; these threads only ever run such calls, so after is enough (before was a second pass
    over the connections on every push, about 1% of a worker under load)."""

    def thread_handler(self, loop, *args, **kwargs):
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()


def database_sync_to_async(func):
    """channels' helper, but on a pool of threads rather than one thread per process: each call is
    self-contained (its own connection, closed after), and with one shared thread every board render
    of every socket in the process queued behind the others (bench.load: handshakes over 30 s)."""
    return _SocketSyncToAsync(func, thread_sensitive=False, executor=socket_executor())


class Consumer(AsyncWebsocketConsumer):
    """Channels' consumer without its database clean-up before every message.

    Channels closes the stale database connections of its one thread-sensitive thread before each
    message a consumer handles: a hop to that thread (shared by every socket of the process) for
    every push, echo and heartbeat. These consumers never use that thread for the database: their
    calls run through ``database_sync_to_async`` above, which closes its connections itself."""

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except Exception as exc:
            if not outages.unreachable(exc):
                raise
            outages.layer.failed("a socket could not use it", exc)
            # Refuses the handshake, or closes an accepted socket: the page reconnects later.
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": 1013})

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
