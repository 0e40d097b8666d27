"""Hostile input and authorisation, over every URL the site has.

- A fuzz test posts (and gets) random and malformed data to every endpoint as the player, the
  opponent, a stranger and an anonymous visitor: never a 500, and a refused request changes nothing.
- Every URL and every socket route, walked with each path value an id must not be (0, -1, 2**63,
  10**30, letters, other scripts' digits…) and ids no object has, as every kind of user: a 404 or a
  refused handshake, never a 500; a socket to a path no route takes is refused with one log line.
- CSRF is enforced on every POST; websockets from another origin (or none) are refused.
- A stranger cannot see a game's hidden cards, act in it or join it; a non-staff user cannot reach
  the tournament admin or its actions.
"""

from __future__ import annotations

import logging
import random
import secrets
import urllib.parse

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls.resolvers import RoutePattern
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribsite.asgi import application
from cribsite.routing import websocket_urlpatterns
from games.play import services
from games.play.converters import MAX_ID
from games.play.models import Game, Move, Seat
from games.tournaments import services as tournament_services
from games.tournaments.models import Entrant, Match, Tournament
from tests.live.support import load, session_key, two_players
from tests.ops.urls import Route, admin_model, routes
from tests.play.factories import computer_game, fixed_secrets, make_user, play_out
from tests.play.test_hidden_information import cards_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

ROUTES = routes()
ROLES = ("player", "opponent", "stranger", "anonymous")
# POSTs that carry their own proof instead of a CSRF token: a mail program's one-click unsubscribe
# (RFC 8058) posts with no session, and the signed token in the address is what it may do.
CSRF_EXEMPT = {"/unsubscribe/<str:token>/"}
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _quiet(monkeypatch, settings):
    fixed_secrets(monkeypatch, "ops-security")
    # Limits are tested in test_ratelimit; here they would only turn the fuzzer's requests into 429s
    # (and leave counts behind in the cache).
    settings.RATE_LIMIT_MOVES = "off"
    settings.RATE_LIMIT_LOGIN_FAILURES = "off"
    settings.RATE_LIMIT_LOGIN_FAILURES_PER_IP = "off"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class World:
    """Alice and Bob mid-game, Alice's invitation to Bob, Alice's finished game against the computer,
    a started tournament of Alice and Bob, and Carol, who has nothing to do with any of it."""

    def __init__(self) -> None:
        self.game, self.alice, self.bob = two_players(names=("alice", "bob"))
        self.carol = make_user("carol")
        self.seek = services.game_create_seek(user=self.alice, rules=self.game.house_rules, invited=self.bob)
        self.done = computer_game(self.alice)
        services.game_act(user=self.alice, game_id=self.done.pk, version=self.done.version,
                          action={"type": "resign"})
        self.tournament = Tournament.objects.create(name="Ops Open")
        for user in (self.alice, self.bob):
            tournament_services.tournament_register(user=user, tournament_id=self.tournament.pk)
        tournament_services.tournament_start(tournament_id=self.tournament.pk)
        self.match = Match.objects.filter(tournament=self.tournament).exclude(game=None).first()
        # Staff with every permission: a missing object must be a 404 in the admin's views too.
        self.staff = get_user_model().objects.create_superuser("dora", password=None)
        self.users = {"player": self.alice, "opponent": self.bob, "stranger": self.carol, "anonymous": None,
                      "staff": self.staff}

    def keep_playing(self) -> None:
        """A fuzzed request may end the game (a resign, an abort): start another for the next ones."""
        self.game.refresh_from_db()
        if self.game.status != Game.Status.ACTIVE:
            seek = services.game_create_seek(user=self.alice, rules=self.game.house_rules)
            self.game = services.game_accept(user=self.bob, game_id=seek.pk)

    def value(self, name: str, converter: str, template: str) -> object:
        """A real value for a path parameter (the fuzzer draws others)."""
        objects = {"game": self.game, "tournament": self.tournament, "match": self.match,
                   "entrant": Entrant.objects.first(), "user": self.alice}
        if name == "object_id":
            obj = objects.get(admin_model(template))
            return obj.pk if obj is not None else 1
        return {
            "game_id": self.game.pk, "tournament_id": self.tournament.pk, "match_id": self.match.pk,
            "username": self.alice.username, "token": self.seek.invite_token, "uidb64": "MQ",
        }.get(name, 1 if converter == "id" else 0 if converter == "index" else "x")

    def client(self, role: str, **kwargs) -> Client:
        client = Client(**kwargs)
        if self.users[role] is not None:
            client.force_login(self.users[role])
        return client

    def snapshot(self) -> tuple:
        """Everything a refused request must leave as it was."""
        return (
            tuple(Game.objects.order_by("pk").values_list("pk", "version", "status", "winner_seat")),
            Seat.objects.count(),
            Move.objects.count(),
            tuple(Entrant.objects.order_by("pk").values_list("pk", "withdrawn")),
            tuple(Tournament.objects.order_by("pk").values_list("pk", "status")),
            tuple(Match.objects.order_by("pk").values_list("pk", "status", "winner_id")),
        )

    def game_snapshot(self) -> tuple:
        self.game.refresh_from_db()
        return self.game.version, self.game.state, self.game.status, self.game.moves.count()


@pytest.fixture
def world() -> World:
    return World()


# --- fuzzing every endpoint ----------------------------------------------------------------------

FIELD_NAMES = [
    "type", "version", "card", "cards", "position", "points", "message", "token", "username", "password",
    "password1", "password2", "old_password", "new_password1", "new_password2", "email", "next", "step",
    "page", "pool", "opponent", "result", "reason", "action", "_selected_action", "winner",
    "seek-target", "seek-opponent", "seek-rated", "seek-turn_timer", "seek-match_games", "seek-skunks",
    "cpu-level", "cpu-target", "cpu-hints", "cpu-match_games", "table-seats", "table-target",
]
NASTY = [
    "", "0", "-1", "1", "2", "3", "121", "61", "5H", "KS", "TD", "10H", "AS", "XX", "discard", "play", "go",
    "resign", "cut_for_deal", "next_deal", "next_game", "count", "call_muggins", "accept_count", "on",
    "expert", "hello", "\x00", "a\x00b", "%00", "' OR 1=1 --", "<script>alert(1)</script>", "{{ 7*7 }}",
    "9" * 5000, "x" * 10000, "1e400", "NaN", "-0", "٣", "🂡", "\u202e", "../../etc/passwd", "None", "[]",
]
values = st.one_of(st.sampled_from(NASTY), st.text(max_size=30), st.integers(-(2**70), 2**70).map(str))
form_data = st.dictionaries(
    st.one_of(st.sampled_from(FIELD_NAMES), st.text(min_size=1, max_size=12)),
    st.one_of(values, st.lists(values, max_size=3)),
    max_size=6,
)
# What an id in a path must not be: each is a 404 (a refused handshake for a socket), whatever the view.
NOT_IDS = ["0", "-1", str(2**63), str(10**30), "abc", "ünï", "٣", "１", "007", "+1", "1e3", "-0"]
# Ids the converter takes but no object has: the lookups find nothing rather than overflow a column.
ABSENT_IDS = [str(2**31), str(MAX_ID)]
# Every path value of the walk below; the last is a password-reset link's user id, base64 of 2**63.
PATH_VALUES = [*NOT_IDS, *ABSENT_IDS, urlsafe_base64_encode(str(2**63).encode())]
path_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20
).filter(lambda s: s not in (".", ".."))
SITE_ROUTES = [r for r in ROUTES if not r.admin]
# The admin is Django's, behind its own login: fuzz the tournament part (the project's own actions).
ADMIN_ROUTES = [r for r in ROUTES if r.admin and ("/tournaments/" in r.template or r.template == "/admin/")]


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_every_endpoint_as_every_role(world, data):
    world.keep_playing()
    role = data.draw(st.sampled_from(ROLES), label="role")
    route: Route = data.draw(st.sampled_from(SITE_ROUTES + ADMIN_ROUTES), label="route")

    def param(name: str, converter: str, template: str) -> object:
        real = world.value(name, converter, template)
        if converter == "id":
            ids = st.one_of(st.just(real), st.integers(-(2**70), 2**70), st.sampled_from(PATH_VALUES))
            return data.draw(ids, label=name)
        return data.draw(st.one_of(st.just(real), path_text, st.sampled_from(["\x00", "a\x00b"])), label=name)

    path = route.fill(param)
    method = data.draw(st.sampled_from(["GET", "POST"]), label="method")
    fields = data.draw(form_data, label="fields")
    headers = HTMX if data.draw(st.booleans(), label="htmx") else {}
    client = world.client(role)
    before, game_before = world.snapshot(), world.game_snapshot()

    # The test client raises whatever a view raises: a 500 fails here with its traceback.
    if method == "POST":
        response = client.post(path, fields, headers=headers)
    else:
        response = client.get(path, fields, headers=headers)

    request = f"{role} {method} {path} {fields}"
    assert response.status_code < 500, request
    if response.status_code >= 400:
        assert world.snapshot() == before, f"refused with {response.status_code} but changed: {request}"
    if role in ("stranger", "anonymous"):
        assert world.game_snapshot() == game_before, f"the game changed: {request}"
    if role == "anonymous":
        assert world.snapshot() == before, f"something changed: {request}"


@pytest.mark.parametrize(
    "path", ["/accounts/u/a%00b/", "/invite/a%00b/", "/players/a%00b/games/", "/players/a%00b/stats/",
             "/accounts/password/reset/MQ/a%00b/"],
)
def test_a_null_character_in_the_path_is_a_400_not_a_500(world, path):
    client = world.client("player")
    assert client.get(path).status_code == 400
    assert client.get("/lobby/", {"q": "a\x00b"}).status_code == 400
    assert client.post("/games/new/seek/", {"seek-opponent": "bob\x00"}).status_code == 400
    client.cookies["sessionid"] = "abcdefgh\x00"
    assert client.get("/").status_code == 400


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


def socket_routes() -> list[Route]:
    """Every socket route the apps define (not the refusal that takes the other paths)."""
    return [Route("/" + str(p.pattern), p.name, tuple(p.pattern.converters.items()))
            for p in websocket_urlpatterns if isinstance(p.pattern, RoutePattern)]


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


def test_a_stranger_cannot_open_the_game_socket(world):
    session = session_key(world.carol)

    async def attempt() -> tuple[bool, object]:
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
                   (b"cookie", f"sessionid={session}".encode())]
        communicator = WebsocketCommunicator(application, f"/ws/game/{world.game.pk}/", headers=headers)
        connected, code = await communicator.connect()
        await communicator.disconnect(timeout=10)
        return connected, code

    connected, code = async_to_sync(attempt)()
    assert not connected and code == 4403


# --- a stranger and a private game ----------------------------------------------------------------


def hidden_cards(game: Game) -> set:
    state = load(game)
    return {c for hand in state.hands for c in hand} | set(state.crib) | set(state.deck_remainder)


def test_a_stranger_sees_no_hidden_card_of_a_game(world):
    rng = random.Random(8)
    play_out(world.game, {0: world.alice, 1: world.bob}, rng,
             stop=lambda s: s.phase == "play" and len(s.plays) >= 2)
    hidden = hidden_cards(world.game)
    assert len(hidden) >= 40
    client = world.client("stranger")
    # The cards cut for deal were laid face up on the table (back in the pack since, as its log says).
    cut_for_deal = {c for c in load(world.game).cut_cards if c is not None}
    for route in ROUTES:
        if not any(name == "game_id" for name, _ in route.params):
            continue
        # The spectator's board is open to anyone, and shows only what the table shows.
        spectators = route.name == "watch_game"
        allowed = (302, 403, 404, 405, *((200,) if spectators else ()))
        for headers in ({}, HTMX):
            response = client.get(route.fill(world.value), headers=headers)
            assert response.status_code in allowed, (route.template, response.status_code)
            unseen = hidden - cut_for_deal if spectators else hidden
            assert not cards_in(response.content.decode(errors="replace"), unseen), route.template
    Game.objects.filter(pk=world.game.pk).update(private=True)
    assert client.get(f"/games/{world.game.pk}/watch/").status_code == 403


def test_a_stranger_cannot_act_in_a_game_or_take_a_seat(world):
    client = world.client("stranger")
    before = world.game_snapshot()
    for path, data in [
        (f"/games/{world.game.pk}/act/", {"type": "resign", "version": world.game.version}),
        (f"/games/{world.game.pk}/abort/", {}),
        (f"/games/{world.game.pk}/claim/", {}),
        (f"/games/{world.game.pk}/timeout/", {}),
        (f"/games/{world.game.pk}/computer/", {}),
        (f"/games/{world.game.pk}/say/", {"message": "hello"}),
    ]:
        response = client.post(path, data, headers=HTMX)
        assert response.status_code == 403, (path, response.status_code)
    # Joining: the game has started; the invitation is Bob's.
    for game_id, token in ((world.game.pk, ""), (world.seek.pk, ""), (world.seek.pk, "not-the-token")):
        response = client.post(f"/games/{game_id}/accept/", {"token": token}, headers=HTMX)
        assert response.status_code in (403, 409), response.status_code
    assert world.game_snapshot() == before
    assert not Seat.objects.filter(user=world.carol).exists()
    world.seek.refresh_from_db()
    assert world.seek.status == Game.Status.WAITING


# --- the tournament admin ---------------------------------------------------------------------------


def tournament_admin_actions() -> list[tuple[str, str]]:
    """(changelist URL, action name) for every admin action of the tournaments app."""
    out = []
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label != "tournaments":
            continue
        changelist = f"/admin/tournaments/{model._meta.model_name}/"
        for name in model_admin.get_actions(_staff_request()):
            out.append((changelist, name))
    return out


def _staff_request():
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/")
    request.user = get_user_model()(username="probe", is_staff=True, is_superuser=True)
    return request


@pytest.mark.parametrize("staff", [False, True], ids=["non-staff", "staff-without-permissions"])
def test_the_tournament_admin_and_its_actions_are_out_of_reach(world, staff):
    name = f"plain-{secrets.token_hex(3)}"
    user = get_user_model().objects.create_user(name, password=None, is_staff=staff)
    client = Client()
    client.force_login(user)
    before = world.snapshot()
    tournament_routes = [r for r in ROUTES if r.template.startswith("/admin/tournaments/")]
    assert any(r.name == "tournaments_match_result" for r in tournament_routes)
    for route in tournament_routes:
        path = route.fill(world.value)
        for response in (client.get(path, follow=staff), client.post(path, {"winner": "1", "reason": "mine"},
                                                                     follow=staff)):
            if staff:
                # Refused, or (a missing object, a bare object URL) sent on to a page that refuses or
                # to the admin index, which has nothing for this user.
                final = response.redirect_chain[-1][0] if response.redirect_chain else path
                nothing = "have permission to view or edit anything" in response.content.decode()
                assert response.status_code in (403, 404) or (final == "/admin/" and nothing), (
                    path, response.status_code, final
                )
            elif response.request["REQUEST_METHOD"] == "POST" and "/desk/" in path:
                # The director's desk answers a stranger's post with a refusal, not a log-in page.
                assert response.status_code == 403, (path, response.status_code)
            else:
                assert response.status_code == 302, (path, response.status_code)
                assert urllib.parse.urlsplit(response.url).path == "/admin/login/"
    actions = tournament_admin_actions()
    assert actions
    for changelist, action in actions:
        pks = [str(world.tournament.pk), str(world.match.pk)]
        response = client.post(changelist, {"action": action, "_selected_action": pks, "reason": "x"})
        assert response.status_code in ((403,) if staff else (302,)), (changelist, action)
    assert world.snapshot() == before
