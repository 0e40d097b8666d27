"""Requests that do not come from the site's own pages: CSRF is enforced on every POST (a refused
token reloads an htmx page and explains a form; the token gets through), and websockets from another
origin, or none, are refused."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application
from games.play.models import Game
from tests.live.support import session_key
from tests.ops.security_support import (
    HTMX,
    ROUTES,
    World,
    _quiet,  # noqa: F401  autouse: fixed secrets, no rate limits
    socket_routes,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

# POSTs that carry their own proof instead of a CSRF token: a mail program's one-click unsubscribe
# (RFC 8058) posts with no session, and the signed token in the address is what it may do.
CSRF_EXEMPT = {"/unsubscribe/<str:token>/"}


# --- CSRF ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["player", "anonymous"])
def test_every_post_needs_the_csrf_token(world, role):
    client = world.client(role, enforce_csrf_checks=True)
    before = world.snapshot()
    unprotected = []
    for route in ROUTES:
        if route.template in CSRF_EXEMPT:
            continue
        path = route.fill(world.value)
        response = client.post(path, {"type": "resign", "version": world.game.version, "username": "alice"})
        if response.status_code != 403 or b"This page was out of date" not in response.content:
            unprotected.append((path, response.status_code))
    assert not unprotected
    assert world.snapshot() == before


def test_a_refused_token_reloads_an_htmx_page_and_explains_a_form(world):
    client = world.client("player", enforce_csrf_checks=True)
    before = world.snapshot()
    act = f"/games/{world.game.pk}/act/"
    response = client.post(act, {"type": "resign", "version": world.game.version},
                           headers={**HTMX, "X-CSRFToken": "stale" * 8})
    assert response.status_code == 403 and response["HX-Refresh"] == "true"
    page = client.get(f"/games/{world.game.pk}/").content.decode()  # the reload says why
    assert "This page was out of date (your session changed)" in page
    response = client.post(act, {"type": "resign"}, headers={"Referer": f"http://testserver/games/{world.game.pk}/"})
    html = response.content.decode()
    assert response.status_code == 403 and "Nothing was sent" in html and "<nav" in html
    assert f'href="http://testserver/games/{world.game.pk}/"' in html  # back where the form was
    response = client.post(act, {"type": "resign"}, headers={"Referer": "https://evil.example/"})
    assert 'href="https://evil.example/"' not in response.content.decode()
    html = client.post(act, {"type": "resign"}).content.decode()  # no Referer: not the POST-only address
    assert 'class="button button--primary" href="/">Back' in html and f'href="{act}"' not in html
    assert world.snapshot() == before


def test_a_post_with_the_token_gets_through(world):
    client = world.client("player", enforce_csrf_checks=True)
    client.get(f"/games/{world.game.pk}/")  # sets the csrftoken cookie, as a page load does
    token = client.cookies["csrftoken"].value
    version = world.game.version
    response = client.post(f"/games/{world.game.pk}/act/", {"type": "resign", "version": version},
                           headers={**HTMX, "X-CSRFToken": token})
    assert response.status_code == 200
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.FINISHED


# --- websockets from elsewhere --------------------------------------------------------------------


def ws_paths(world: World) -> list[str]:
    ids = {"game_id": world.game.pk, "tournament_id": world.tournament.pk}
    return [route.fill(lambda name, conv, t: ids.get(name, 1)) for route in socket_routes()]


@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://localhost.evil.example", b"null", None])
def test_sockets_from_another_origin_are_refused(world, origin):
    session = session_key(world.alice)

    async def attempt(path: str) -> bool:
        headers = [(b"host", b"localhost"), (b"cookie", f"sessionid={session}".encode())]
        if origin is not None:
            headers.append((b"origin", origin))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect()
        await communicator.disconnect(timeout=10)
        return connected

    paths = ws_paths(world)
    assert len(paths) >= 4
    for path in paths:
        assert not async_to_sync(attempt)(path), path
