"""The tournament page's socket: anyone watching the page (signed in or not) is pushed its live part
for their own user whenever the tournament changes, drawn once for each change and shared by the
sockets that see the same page (``live_pages``). It never writes to the database."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.play.consumers import TurnCounts
from games.tournaments.broadcast import tournament_group


class TournamentConsumer(TurnCounts, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await self._exists():
            await self.close(code=4404)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.scope["user"].is_authenticated:  # the page's menu: "Your turn (N)"
            await self.join_player()
        await self.accept()
        # A fresh render on every (re)connect heals whatever was missed while the socket was down.
        await self._send_live()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.leave_player()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self._send_live()

    async def tournament_changed(self, event: dict) -> None:
        await self._send_live(event.get("stamp"))

    async def _send_live(self, stamp: str | None = None) -> None:
        html = await self._render(stamp)
        if html is not None:
            await self.send(text_data=html)

    @database_sync_to_async
    def _exists(self) -> bool:
        from games.tournaments.models import Tournament

        return Tournament.objects.filter(pk=self.tournament_id).exists()

    @database_sync_to_async
    def _render(self, stamp: str | None) -> str | None:
        from games.tournaments.live_pages import pages

        return pages.page(self.tournament_id, self.scope["user"], stamp)
