"""Websocket consumers. They never write to the database: moves are POSTs to the service layer."""

from __future__ import annotations

import json

from channels.generic.websocket import AsyncWebsocketConsumer


class HealthConsumer(AsyncWebsocketConsumer):
    """Answers "ping" with "pong": lets a page (and a probe) see that websockets get through."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=json.dumps({"type": "hello"}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data and "ping" in text_data:
            await self.send(text_data=json.dumps({"type": "pong"}))
