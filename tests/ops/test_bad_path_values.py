"""Every URL and every socket route, walked with each path value an id must not be (0, -1, 2**63,
10**30, letters, other scripts' digits…) and ids no object has, as every kind of user: a 404 or a
refused handshake, never a 500; a socket to a path no route takes is refused with one log line."""

from __future__ import annotations

import logging
import urllib.parse

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application
from tests.live.support import session_key
from tests.ops.security_support import (
    NOT_IDS,
    PATH_VALUES,
    ROUTES,
    World,
    _quiet,  # noqa: F401  autouse: fixed secrets, no rate limits
    socket_routes,
)
from tests.ops.urls import Route

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


# --- every path value that is no id, everywhere --------------------------------------------------

WALK_ROLES = ("anonymous", "stranger", "player", "staff")


def walked_paths(world: World) -> list[tuple[Route, str, str, str]]:
    """(route, path, converter, value): each URL with a parameter, once per value of PATH_VALUES in
    each of its parameters in turn, the others real."""
    out = []
    for route in ROUTES:
        for position, (_, converter) in enumerate(route.params):
            for bad in PATH_VALUES:
                names = iter(range(len(route.params)))

                def value(name: str, conv: str, template: str, bad: str = bad, position: int = position,
                          names=names) -> object:
                    return bad if next(names) == position else world.value(name, conv, template)

                out.append((route, route.fill(value), converter, bad))
    return out


@pytest.mark.parametrize("role", WALK_ROLES)
def test_no_path_value_gets_a_500_from_any_url(world, role):
    walked = walked_paths(world)
    assert {route for route, *_ in walked} == {route for route in ROUTES if route.params}
    assert "/games/9223372036854775808/act/" in {path for _, path, *_ in walked}
    client = world.client(role)
    before = world.snapshot()
    failures = []
    for route, path, converter, bad in walked:
        for method in (client.get, client.post):
            try:
                status = method(path).status_code
            except Exception as exc:  # the test client raises what a view raised: a 500
                failures.append((method.__name__, path, repr(exc)))
                continue
            # An id the converter refuses is no URL of the site's (the admin sends anything under a
            # model's address on to its own pages).
            if status >= 500 or (converter == "id" and bad in NOT_IDS and not route.admin and status != 404):
                failures.append((method.__name__, path, status))
    assert not failures, failures
    assert world.snapshot() == before


@pytest.mark.parametrize("path", [
    *(f"/games/{2**63}/{action}/" for action in ("act", "accept", "withdraw", "leave", "rematch")),
    f"/games/{10**30}/act/", f"/tournaments/{2**63}/matches/1/watch/",
    "/games/0/", "/games/-1/", "/games/007/", "/games/%D9%A3/",
])
@pytest.mark.parametrize("role", ["anonymous", "player"])
def test_an_id_the_database_cannot_hold_is_a_404(world, path, role):
    client = world.client(role)
    assert client.post(path).status_code == 404
    assert client.get(path).status_code == 404


async def handshake(path: str, session: str | None) -> tuple[bool, object]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    try:
        return await communicator.connect(timeout=10)
    finally:
        await communicator.disconnect(timeout=10)


def test_no_path_value_opens_or_breaks_a_socket(world, caplog):
    routes_with_ids = [r for r in socket_routes() if r.params]
    assert {r.template for r in routes_with_ids} >= {"/ws/game/<id:game_id>/", "/ws/watch/<id:game_id>/",
                                                      "/ws/tournament/<id:tournament_id>/"}
    assert all(type(c).__name__ == "IdConverter" for r in routes_with_ids for _, c in r.params)
    sessions = {role: session_key(world.users[role]) if world.users[role] else None for role in WALK_ROLES}
    failures = []
    with caplog.at_level(logging.INFO):
        for route in routes_with_ids:
            for bad in PATH_VALUES:
                path = route.template.replace(f"<id:{route.params[0][0]}>", urllib.parse.quote(bad))
                for role, session in sessions.items():
                    try:
                        connected, code = async_to_sync(handshake)(path, session)
                    except Exception as exc:  # channels' router raised: daphne would answer 500
                        failures.append((role, path, repr(exc)))
                        continue
                    if connected:
                        failures.append((role, path, "connected"))
    assert not failures, failures
    assert not [r for r in caplog.records if r.exc_info], caplog.text


NO_ROUTE_PATHS = ["/ws/game/abc/", "/ws/no-such-route/", "/ws/", "/", "/ws/game/1/more/", "/ws/gäme/1/",
                  "/ws/game/%0A%0DFAKE%20line/", "/ws/" + "x" * 5000 + "/"]


@pytest.mark.parametrize("role", ["anonymous", "player"])
def test_a_socket_to_a_path_no_route_takes_is_refused_with_one_log_line(world, caplog, role):
    session = session_key(world.alice) if role == "player" else None
    for path in NO_ROUTE_PATHS:
        caplog.clear()
        with caplog.at_level(logging.INFO):
            connected, code = async_to_sync(handshake)(path, session)
        assert (connected, code) == (False, 4404), path
        lines = [r for r in caplog.records if r.name == "cribsite.routing"]
        assert len(lines) == 1, (path, caplog.text)
        message = lines[0].getMessage()
        assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None
        assert message.startswith("websocket refused: no route for path=") and "\n" not in message
        assert len(message) < 300 and not any(r.exc_info for r in caplog.records), caplog.text
