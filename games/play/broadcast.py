"""The only place that talks to the channel layer. Messages carry ids and versions, never cards,
so no routing mistake can leak a hidden card: each socket renders its own user's view."""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.infra import loop_send, outages, timeline

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
# Every open list of games to watch. The list is the same for every reader, so each change is
# drawn once and handed to all of them: the stamp below names the list as it is now, and the
# drawn list is kept under it (``games.pages.watching``).
WATCH_LIST_GROUP = "watch-list"
WATCH_LIST_STAMP_KEY = "watch-list:stamp"


def player_group(user_id: int) -> str:
    """Every page one player has open: its notices socket (``consumers.NewsConsumer``), or the
    lobby's or a board's own socket, which carry the count of games waiting on the player."""
    return f"player-{user_id}"


# How long a request's thread waits for its push to leave before it draws its answer (see
# games/infra/loop_send.py): handed to the loop and not waited for, a push waited for the answer to
# be drawn, which held the interpreter's lock the loop needs.
PUSH_WAIT_SECONDS = 0.05


def group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = loop_send.serving_loop()
    if loop is not None:  # a request's thread in a running server
        loop_send.send_on_loop(loop, lambda: layer.group_send(group, message), group, PUSH_WAIT_SECONDS)
        return
    if loop_send.stopped_loop():
        log.warning("push to %s dropped: the server is stopping", group)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # noqa: BLE001 - a push is best effort: the move is committed, pages resync
        log.warning("push to %s failed", group, exc_info=True)  # once an outage (infra.outages)
    else:
        outages.layer.delivered()


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


def watch_list_changed() -> None:
    """A game anyone may watch began, scored or ended: a new stamp, and the list's readers are told."""
    from django.core.cache import cache

    stamp = secrets.token_hex(8)
    try:
        cache.set(WATCH_LIST_STAMP_KEY, stamp, None)
    except Exception:  # noqa: BLE001 - best effort as any push: the list heals on its next change
        log.warning("the watch list's stamp could not be kept", exc_info=True)
    group_send(WATCH_LIST_GROUP, {"type": "watch.changed", "stamp": stamp})


def player_news(user_ids: Iterable[int]) -> None:
    """An organiser has news for these players (their match is ready): each of their open pages
    draws it for its own user."""
    for user_id in dict.fromkeys(user_ids):
        group_send(player_group(user_id), {"type": "player.news"})


def player_turns(user_ids: Iterable[int]) -> None:
    """The count of own-pace games waiting on these players may have changed: each of their open
    pages draws its own user's count ("Your turn (N)"). The message holds no count and no game."""
    for user_id in dict.fromkeys(user_ids):
        group_send(player_group(user_id), {"type": "player.turns"})
