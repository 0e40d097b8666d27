"""The only place that talks to the channel layer. Messages carry ids and versions, never cards,
so no routing mistake can leak a hidden card: each socket renders its own user's view."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import re
import secrets

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from games.infra import timeline

log = logging.getLogger(__name__)

# A page's tab id: random, made when the board page is drawn; it only ever spares a socket a push.
TAB_RE = re.compile(r"[A-Za-z0-9_-]{8,40}")


def new_tab_id() -> str:
    return secrets.token_hex(8)  # lowercase hex: never reads as a card ("4H") in the page


def tab_id(raw: str) -> str:
    """A tab id as a request or a socket URL gave it; anything odd is ignored (""), not refused."""
    return raw if TAB_RE.fullmatch(raw) else ""


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


LOBBY_GROUP = "lobby"


# How long a request's thread waits for its push to be sent before it goes on to draw its answer.
# Handed to the loop and not waited for, a push waited for the thread's answer to be drawn: the
# loop needs the interpreter's lock, which the drawing thread held (bench.load at 50 games, the
# time from a move's commit to the opponent's socket receiving the message: 1.4 ms median and
# 2.6 ms p90; waiting, 0.6 and 1.4). Waiting gives the lock up; a Redis that is slow or down
# costs a move no more than this.
PUSH_WAIT_SECONDS = 0.05


def group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _serving_loop()
    if loop is not None:
        # A request's thread in a running server: the event loop sends it. Sends keep their order
        # on the loop. The thread waits for the send, but only a moment (see PUSH_WAIT_SECONDS).
        try:
            future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        except RuntimeError:  # the loop closed under us: the server is stopping
            log.warning("push to %s dropped: the server is stopping", group)
            return
        future.add_done_callback(lambda done: _check(group, done))
        concurrent.futures.wait([future], timeout=PUSH_WAIT_SECONDS)
        return
    stopped = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if stopped is not None and not stopped.is_closed():
        # A request's thread whose server loop has stopped but is not closed (a worker shutting
        # down mid-request): async_to_sync would hand the send to that loop and wait forever. A
        # closed loop it notices, and sends on a loop of its own.
        log.warning("push to %s dropped: the server is stopping", group)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # noqa: BLE001 - a push is best effort: the move is committed, pages resync
        log.warning("push to %s failed", group, exc_info=True)


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose ``sync_to_async`` runs this thread (what ``async_to_sync`` would hop
    back to), or None outside one (a management command, a synchronous test)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def _check(group: str, done: concurrent.futures.Future) -> None:
    if not done.cancelled() and done.exception() is not None:
        # A push is best effort: the move is committed, and pages resync when they reconnect.
        log.warning("push to %s failed", group, exc_info=done.exception())


def game_changed(game_id: int, version: int, *, origin: str = "", actor: int | None = None) -> None:
    """``origin``/``actor``: the page and user whose request made the change (and got the board in
    its answer); that one socket skips the push, every other one renders it."""
    timeline.mark("commit", game=game_id, version=version)
    group_send(game_group(game_id), {
        "type": "game.changed", "game": game_id, "version": version, "origin": origin, "actor": actor,
    })


def presence_changed(game_id: int) -> None:
    group_send(game_group(game_id), {"type": "game.presence", "game": game_id})


def game_chat(game_id: int, seat: int, message: str) -> None:
    """A quick message: ``message`` is a key of ``games.play.chat.MESSAGES``, never free text."""
    group_send(game_group(game_id), {"type": "game.chat", "game": game_id, "seat": seat, "message": message})


def lobby_changed(started: int | None = None, players: tuple[int, ...] = ()) -> None:
    """Seeks changed. ``started``: a game that just began, whose ``players`` should be sent to it."""
    group_send(LOBBY_GROUP, {"type": "lobby.changed", "started": started, "players": list(players)})
