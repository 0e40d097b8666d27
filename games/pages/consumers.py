"""The site pages' sockets: the health socket, and the list of games to watch."""

from __future__ import annotations

import json

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


class WatchListConsumer(Consumer):
    """Anyone's list of games to watch: the list as it is on (re)connect, then each change, drawn
    once for all the sockets (``watching.list_html``). It never writes to the database."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(WATCH_LIST_GROUP, self.channel_name)
        self.joined = True
        await self.accept()
        await self._send_list(None)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(WATCH_LIST_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self._send_list(None)  # the page asks again (it came back to the foreground)

    async def watch_changed(self, event: dict) -> None:
        await self._send_list(event.get("stamp"))

    async def _send_list(self, stamp: str | None) -> None:
        await self.send(text_data=await self._render(stamp))

    @database_sync_to_async
    def _render(self, stamp: str | None) -> str:
        from games.pages.watching import list_html

        return list_html(stamp, oob=True)
