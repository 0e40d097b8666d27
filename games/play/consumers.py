"""Websocket consumers. They never change a game: moves are POSTs to the service layer. The one
thing a socket records is itself (``games.play.presence``: who has the table open, kept alive by
its process's heartbeat in ``layer_watch``), which is not game state.

A game socket renders the board for *its own user* whenever the game changes, so nothing hidden
from that user can be in what it sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from urllib.parse import parse_qs

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token

from games.infra import timeline
from games.infra.sockets import Consumer, database_sync_to_async
from games.play import broadcast, layer_watch

log = logging.getLogger(__name__)


def csrf_token(scope: dict) -> str:
    """A form token for what a socket pushes: the socket's own CSRF cookie, masked as Django masks
    one for a page (``get_token``); "" without a usable cookie (a pushed form then asks for a reload)."""
    secret = scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
    if len(secret) != CSRF_SECRET_LENGTH or not set(secret) <= set(CSRF_ALLOWED_CHARS):
        return ""
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = secret
    return get_token(request)


def _query_tab(scope: dict) -> str:
    """The page's tab id (``?tab=``), which its htmx requests send as ``X-Board-Tab``."""
    return broadcast.tab_id(parse_qs(scope.get("query_string", b"").decode("latin-1")).get("tab", [""])[0])


class TurnCounts:
    """A page's own socket that also keeps its menu's "Your turn (N)" live: it joins its user's
    group, and when told the count may have changed it draws the count of *its own user*."""

    async def join_player(self) -> None:
        self.player = broadcast.player_group(self.scope["user"].pk)
        await self.channel_layer.group_add(self.player, self.channel_name)

    async def leave_player(self) -> None:
        if hasattr(self, "player"):
            await self.channel_layer.group_discard(self.player, self.channel_name)

    async def player_turns(self, event: dict) -> None:
        await self.send(text_data=await self._render_turns())

    async def player_news(self, event: dict) -> None:
        """An organiser's news is for the pages that listen for it (``NewsConsumer``)."""

    @database_sync_to_async
    def _render_turns(self) -> str:
        from games.play.news import render_turn_count

        return render_turn_count(self.scope["user"].pk)


class LobbyConsumer(TurnCounts, Consumer):
    """Sends a lobby page its lists, rendered for its own user, whenever seeks change."""

    async def connect(self) -> None:
        if not self.scope["user"].is_authenticated:
            await self.close(code=4401)
            return
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.join_player()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)
        await self.leave_player()

    async def lobby_changed(self, event: dict) -> None:
        if self.scope["user"].pk in event.get("players", ()) and event.get("started"):
            # Your seek was taken: the board opens by itself (see page.js, [data-follow]).
            url = f"/games/{int(event['started'])}/"
            await self.send(text_data=f'<a id="lobby-follow" hx-swap-oob="true" data-follow href="{url}">'
                                      "Your game is starting: open the board</a>")
        await self.send(text_data=await self._render())

    @database_sync_to_async
    def _render(self) -> str:
        from games.play.views.lobby import render_lobby_lists

        return render_lobby_lists(self.scope["user"], csrf_token(self.scope))


# Every this many heartbeats one also goes through the channel layer to the socket itself, and must be
# back by the next such: the process's watch finds within seconds a layer that stops delivering to
# the whole process; this finds, within a minute, a socket whose own subscription broke, for a
# third of the messages a check on every beat would cost.
LAYER_CHECK_BEATS = 3

# The board's root element carries its version (board.html), in its first few hundred characters.
BOARD_VERSION = re.compile(r'<div id="board"[^>]*?\bdata-version="(\d+)"')


class GameConsumer(TurnCounts, Consumer):
    """One per open board: joins the game's group if the user holds a seat, refuses anyone else."""

    sent_version = -1  # the newest board this socket has sent (or its page's own answer carried)
    at_table = True  # its player's presence is kept alive by the process's heartbeat (layer_watch)
    beats = 0  # heartbeats so far
    beats_sent = beats_back = 0  # heartbeats sent through the channel layer to this socket, and come back

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.tab = _query_tab(self.scope)
        if not await self._admitted():
            await self.close(code=4403)
            return
        self.group = broadcast.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.at_table:  # a spectator's page has a notices socket of its own
            await self.join_player()
        await self.accept()
        # A fresh board on every (re)connect heals whatever was missed while the socket was down.
        await self._send_board()
        await self._presence("connected")
        self.heartbeat = asyncio.ensure_future(self._beat())
        self.watch = layer_watch.watch()
        self.watch.join(self)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            self.heartbeat.cancel()
            self.watch.leave(self)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.leave_player()
            await self._presence("disconnected")

    async def _beat(self) -> None:
        from games.play import presence

        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(presence.heartbeat_delay(first=self.beats == 0))
                self.beats += 1
                # While the process's watch finds the whole layer away, a new socket would fare no
                # better: this one stays, its page is told, and the watch catches it up on return.
                live = self.watch.up
                checks = self.beats % LAYER_CHECK_BEATS == 0
                if live and checks and self.beats_back < self.beats_sent:
                    # The last heartbeat sent through the channel layer to this very socket has
                    # not come back: pushes are not arriving. Closing with 1013 ("try again
                    # later") makes the page say "Reconnecting…" and reconnect, and a new socket
                    # starts with the current board once the layer answers again.
                    log.warning("game %s: the channel layer does not deliver; closing a socket", self.game_id)
                    await self.close(code=1013)
                    return
                # The process's watch reads every game's version once a heartbeat, in one query
                # (None while it cannot: the page then hears the newest board this socket sent).
                version = self.watch.version_of(self.game_id)
                # A push can be lost while the socket stays open (a Redis blip between the worker
                # that sent it and this one): the page would wait for a move already made.
                if version is not None and version > self.sent_version:
                    await self._send_board(newer_only=True)
                await self._tell_page(version, live=live)
                if not live or not checks:
                    continue
                self.beats_sent += 1
                beat = {"type": "game.beat", "n": self.beats_sent}
                try:
                    # Bounded: a Redis that stops answering without closing the connection must not
                    # stall the heartbeat, which would then never close the socket.
                    await asyncio.wait_for(self.channel_layer.send(self.channel_name, beat),
                                           presence.HEARTBEAT_SECONDS)
                except Exception:  # noqa: BLE001 - the layer is down: the next beat closes the socket
                    log.warning("game %s: a heartbeat could not be sent", self.game_id, exc_info=True)

    async def game_beat(self, event: dict) -> None:
        self.beats_back = max(self.beats_back, int(event.get("n", 0)))

    async def layer_changed(self, up: bool, version: int | None) -> None:
        """The process's channel layer stopped delivering, or delivers again (``layer_watch``):
        pushes made meanwhile are lost, so a board behind ``version`` is drawn now."""
        if up:
            self.beats_back = self.beats_sent  # beats lost with the layer say nothing of this socket
            if version is not None:
                await self.catch_up(version)
        await self._tell_page(version, live=up)

    async def catch_up(self, version: int) -> None:
        """The game is at ``version``: a board behind it is drawn (a push lost, or none possible)."""
        if version > self.sent_version:
            await self._send_board(newer_only=True)

    async def _tell_page(self, version: int | None, *, live: bool) -> None:
        """The page's own heartbeat: the game's version (a page behind it asks for the board) and
        whether pushes reach this socket. Its arrival also tells the page the socket is alive."""
        beat = max(self.sent_version, version or 0)
        await self.send(text_data=json.dumps({"beat": beat, "live": live}))

    @database_sync_to_async
    def _presence(self, what: str) -> None:
        from games.play import presence

        if what == "connected":
            presence.connected(game_id=self.game_id, user=self.scope["user"], channel_name=self.channel_name)
        else:
            presence.disconnected(game_id=self.game_id, channel_name=self.channel_name)

    async def game_presence(self, event: dict) -> None:
        html = await self._render_presence()
        if html:
            await self.send(text_data=html)

    async def game_chat(self, event: dict) -> None:
        html = await self._render_chat(event["seat"], event["message"])
        if html:
            await self.send(text_data=html)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves never come this way; a client may only ask for a fresh board."""
        await self._send_board()

    async def game_changed(self, event: dict) -> None:
        # The page whose own request made this change has the new board in its answer already.
        mine = event.get("actor") == self.scope["user"].pk
        version = event.get("version")
        if mine and self.tab and event.get("origin") == self.tab:
            # Its page has this version already: the heartbeat must not draw it again either (it
            # did, for every socket whose player had moved since its last beat). A page whose
            # answer was lost hears the version on the next beat and asks for its board.
            if isinstance(version, int):
                self.sent_version = max(self.sent_version, version)
            return
        # A board is drawn from the game as it is when drawn, so one push can carry several moves:
        # when moves come quickly (the show, a computer's turns, a busy server), the later
        # messages find their version sent already and cost nothing.
        if isinstance(version, int) and version <= self.sent_version:
            return
        timeline.mark("received", game=self.game_id, version=version, user=self.scope["user"].pk)
        await self._send_board(newer_only=True)

    async def _send_board(self, *, newer_only: bool = False) -> None:
        """Draw and send the board; ``newer_only``: unless a board of its version went out while it
        was drawn (a catch-up by the heartbeat and one by the process's watch can cross)."""
        html = await self._render()
        if html is None:
            return
        match = BOARD_VERSION.search(html, 0, 400)
        version = int(match.group(1)) if match else None
        if version is not None:
            if version < self.sent_version or (newer_only and version == self.sent_version):
                return  # a board as new went out while this one was drawn
            self.sent_version = version  # before the send: a board drawn meanwhile sees it
            timeline.mark("drawn", game=self.game_id, version=version, user=self.scope["user"].pk)
        await self.send(text_data=html)
        timeline.mark("sent", game=self.game_id, version=version, user=self.scope["user"].pk)

    async def _admitted(self) -> bool:
        user = self.scope["user"]
        return user.is_authenticated and await self._is_player(user)

    @database_sync_to_async
    def _is_player(self, user) -> bool:
        from games.play.models import Seat

        return Seat.objects.filter(game_id=self.game_id, user=user).exists()

    @database_sync_to_async
    def _render(self) -> str | None:
        from games.play.board.player import render_board_oob

        return render_board_oob(self.game_id, self.scope["user"], csrf_token(self.scope))

    @database_sync_to_async
    def _render_presence(self) -> str | None:
        from games.play.board.status import render_presence

        token = csrf_token(self.scope)
        return render_presence(self.game_id, self.scope["user"], oob=True, csrf_token=token)

    @database_sync_to_async
    def _render_chat(self, seat: int, message: str) -> str | None:
        from games.play.board.status import render_chat

        return render_chat(self.game_id, self.scope["user"], seat, message)


class NewsConsumer(Consumer):
    """The notices socket: one per page of a signed-in player other than the lobby and a board, whose
    own sockets serve. Draws for its own user the menu's "Your turn (N)" and an organiser's news
    ("Your match is ready"), on connect and whenever either is pushed to the player's group."""

    async def connect(self) -> None:
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = broadcast.player_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # What changed while no page was open, or while this one was away, shows on (re)connect.
        await self.send(text_data=await self._render_opening())

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is taken from the page."""

    async def player_news(self, event: dict) -> None:
        await self.send(text_data=await self._render())

    async def player_turns(self, event: dict) -> None:
        await self.send(text_data=await self._render_turns())

    @database_sync_to_async
    def _render(self) -> str:
        from games.play.news import render_news

        return render_news(self.scope["user"])

    @database_sync_to_async
    def _render_opening(self) -> str:
        from games.play.news import render_opening

        return render_opening(self.scope["user"])

    @database_sync_to_async
    def _render_turns(self) -> str:
        from games.play.news import render_turn_count

        return render_turn_count(self.scope["user"].pk)


class SpectatorConsumer(GameConsumer):
    """A spectator's socket on a game: the game's pushes, each drawn as the spectator's board
    (``board.spectator``: nothing a player holds). Anyone may watch a game that is not private;
    presence and quick messages stay the players' own."""

    at_table = False  # a spectator is not at the table: the heartbeat keeps no presence for it

    @database_sync_to_async
    def _admitted(self) -> bool:
        from games.play.board.spectator import watchable_game

        return watchable_game(self.game_id, self.scope["user"]) is not None

    async def _presence(self, what: str) -> None:
        return  # a spectator is not at the table

    async def game_presence(self, event: dict) -> None:
        return

    async def game_chat(self, event: dict) -> None:
        return

    @database_sync_to_async
    def _render(self) -> str | None:
        from games.play.board.spectator import render_watch_oob

        return render_watch_oob(self.game_id, self.scope["user"])
