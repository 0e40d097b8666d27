"""Every websocket route of the site, gathered from the apps, and a refusal for any other path.

Without the last route channels' router raises ``ValueError: No route found for path`` for a path no
route takes (a probe, a stale page, an id that is no id: ``/ws/game/abc/``, ``/ws/game/0/``): daphne
answers the handshake with a 500 and prints a traceback for every try. Here it is a refusal (daphne
answers 403) and one line in the log, like Django's "Not Found" for a page.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from django.urls import re_path

from games.pages import routing as pages
from games.play import routing as play
from games.tournaments import routing as tournaments

log = logging.getLogger("cribsite.routing")

NO_ROUTE = 4404  # the close code a client is given (a browser sees the handshake's 403)
_SHOWN = 200  # characters of the path in the log line: a client may send a path of any length


async def refuse_unrouted(scope: dict, receive: Callable[[], Awaitable[dict]],
                          send: Callable[[dict], Awaitable[None]]) -> None:
    """A bare ASGI app, not a consumer: nothing to join, so no channel-layer channel to open."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return  # the client left before its handshake: nothing to refuse
    # %r: the path is the client's text; escaped, a newline in it cannot start a line of its own.
    log.warning("websocket refused: no route for path=%r", scope.get("path", "")[:_SHOWN])
    await send({"type": "websocket.close", "code": NO_ROUTE})


websocket_urlpatterns = [
    *play.websocket_urlpatterns,
    *tournaments.websocket_urlpatterns,
    *pages.websocket_urlpatterns,
    # Last, and it matches any path: channels' router would raise for a path no route above takes.
    re_path(r"", refuse_unrouted, name="no_route"),
]
