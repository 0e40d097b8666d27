"""The health socket: lets a page (and a probe) see that websockets get through."""

from __future__ import annotations

import json

from games.infra.sockets import Consumer


class HealthConsumer(Consumer):
    """Answers "ping" with "pong": lets a page (and a probe) see that websockets get through."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=json.dumps({"type": "hello"}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data and "ping" in text_data:
            await self.send(text_data=json.dumps({"type": "pong"}))
