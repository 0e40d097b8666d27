"""The site pages' sockets: the health socket, and the list of games to watch."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from games.infra.sockets import Consumer, database_sync_to_async
from games.play.broadcast import WATCH_LIST_GROUP


class HealthConsumer(Consumer):
    """Answers "ping" with "pong": lets a page (and a probe) see that websockets get through."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=json.dumps({"type": "hello"}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data and "ping" in text_data:
            await self.send(text_data=json.dumps({"type": "pong"}))


# A busy site scores several times a second: a socket is sent the list at most this often, the
# latest change each time, so a watcher's page and connection are not flooded with lists.
PUSH_GAP_SECONDS = 1.0


class WatchListConsumer(Consumer):
    """Anyone's list of games to watch: the list as it is on (re)connect, then its changes, drawn
    once for all the sockets (``watching.list_html``). It never writes to the database."""

    stamp: str | None = None  # the latest change heard of
    sent_at = 0.0
    flush: asyncio.Future | None = None

    async def connect(self) -> None:
        await self.channel_layer.group_add(WATCH_LIST_GROUP, self.channel_name)
        self.joined = True
        await self.accept()
        await self._send_list(None)

    async def disconnect(self, code: int) -> None:
        if self.flush is not None:
            self.flush.cancel()
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(WATCH_LIST_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self._send_list(None)  # the page asks again (it came back to the foreground)

    async def watch_changed(self, event: dict) -> None:
        self.stamp = event.get("stamp")
        if self.flush is None or self.flush.done():
            self.flush = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        """Send the latest change once the gap since the last list is over; a change heard while
        it was drawn is sent after it in turn."""
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                wait = self.sent_at + PUSH_GAP_SECONDS - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                stamp = self.stamp
                await self._send_list(stamp)
                if self.stamp == stamp:
                    return

    async def _send_list(self, stamp: str | None) -> None:
        html = await self._render(stamp)
        self.sent_at = time.monotonic()
        await self.send(text_data=html)

    @database_sync_to_async
    def _render(self, stamp: str | None) -> str:
        from games.pages.watching import list_html

        return list_html(stamp, oob=True)
