"""Forms that arrive over a websocket must still be submittable.

A partial pushed over a socket is rendered without a request, so the consumer supplies the CSRF
token from the socket's own cookie. Forms posted by htmx would not mind (``<body hx-headers>``
sends the token), but a plain ``<form method="post">`` in a pushed partial would answer 403 when
clicked: the lobby's Accept and Withdraw buttons after a lobby push, and the Rematch button on the
board of the player whose opponent made the last move. (Found by these tests; fixed in consumers.)
"""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.middleware import csrf

from cribsite.asgi import application
from games.play import services
from games.play.models import Game
from tests.live.support import SHORT_GAME, as_form, board_version, load, next_turn, session_key, two_players
from tests.play.factories import fixed_secrets, make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

SECRET = "c" * 32  # the CSRF cookie the sockets below present
_FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S)


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "live-forms")


def _headers(user) -> list[tuple[bytes, bytes]]:
    # A browser sends every cookie of the site with the handshake, the CSRF cookie included.
    cookie = f"sessionid={session_key(user)}; csrftoken={SECRET}"
    return [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())]


def unsubmittable_forms(html: str, action: str) -> list[str]:
    """POST forms to ``action`` that neither carry a CSRF token nor are sent by htmx."""
    bad = []
    for form in _FORM.findall(html):
        opening = form[: form.index(">") + 1]
        if f'action="{action}"' not in opening or 'method="post"' not in opening:
            continue
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
        # The token must be one the CSRF check accepts for this socket's cookie, not merely present.
        has_token = token and len(token[1]) == 64 and csrf._unmask_cipher_token(token[1]) == SECRET
        by_htmx = "hx-post" in opening or "hx-boost" in html
        if not (has_token or by_htmx):
            bad.append(form)
    return bad


async def test_a_seek_pushed_to_the_lobby_can_be_accepted():
    alice, bob = await sync_to_async(lambda: (make_user("alice"), make_user("bob")))()
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=await sync_to_async(_headers)(bob))
    assert (await lobby.connect())[0]
    try:
        seek = await sync_to_async(services.game_create_seek)(user=alice, rules=SHORT_GAME)
        html = await lobby.receive_from(timeout=10)
        assert f'action="/games/{seek.pk}/accept/"' in html
        assert unsubmittable_forms(html, f"/games/{seek.pk}/accept/") == []
    finally:
        await lobby.disconnect(timeout=10)


async def test_the_result_pushed_to_the_other_player_offers_a_working_rematch_and_its_acceptance():
    game, alice, bob = await sync_to_async(two_players)()
    sockets = {}
    for seat, user in ((0, alice), (1, bob)):
        sockets[seat] = WebsocketCommunicator(
            application, f"/ws/game/{game.pk}/", headers=await sync_to_async(_headers)(user)
        )
        assert (await sockets[seat].connect())[0]
    rng = random.Random(5)

    def move() -> tuple[int, int] | None:
        state = load(game)
        if game.status != Game.Status.ACTIVE:
            return None
        seat, action = next_turn(state, rng)
        user = (alice, bob)[seat]
        services.game_act(user=user, game_id=game.pk, version=game.version, action=as_form(action))
        return seat, game.version + 1

    try:
        last = {0: "", 1: ""}
        mover = None
        for _ in range(600):
            moved = await sync_to_async(move)()
            if moved is None:
                break
            mover, version = moved
            for seat, socket in sockets.items():
                while board_version(html := await socket.receive_from(timeout=10)) != version:
                    pass
                last[seat] = html
        watcher = 1 - mover  # the player who did not make the last move saw the result only by push
        assert f'action="/games/{game.pk}/rematch/"' in last[watcher]
        assert unsubmittable_forms(last[watcher], f"/games/{game.pk}/rematch/") == []
        assert ">Accept rematch</button>" not in last[watcher]

        # The last mover offers a rematch: the watcher, still on the finished board, is sent it again
        # at once with "Accept rematch", which posts to the same working form.
        await sync_to_async(services.game_rematch)(user=(alice, bob)[mover], game_id=game.pk)
        offered = await sockets[watcher].receive_from(timeout=10)
        assert board_version(offered) == version + 1
        assert ">Accept rematch</button>" in offered
        assert unsubmittable_forms(offered, f"/games/{game.pk}/rematch/") == []
        offerer = mover
        while board_version(waiting := await sockets[offerer].receive_from(timeout=10)) != version + 1:
            pass
        assert "Rematch offered: it starts when" in waiting

        # The watcher accepts: the offerer's finished board, still open, is sent the way to the
        # new game, marked for the page to follow.
        rematch = await sync_to_async(services.game_rematch)(user=(alice, bob)[watcher], game_id=game.pk)
        for _ in range(5):
            pushed = await sockets[offerer].receive_from(timeout=10)
            if board_version(pushed) == version + 2:
                break
        assert f'href="/games/{rematch.pk}/" data-follow>Go to the rematch</a>' in pushed
    finally:
        for socket in sockets.values():
            await socket.disconnect(timeout=10)
