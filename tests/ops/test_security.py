"""Hostile input and authorisation, over every URL the site has.

- A fuzz test posts (and gets) random and malformed data to every endpoint as the player, the
  opponent, a stranger and an anonymous visitor: never a 500, and a refused request changes nothing.
- CSRF is enforced on every POST; websockets from another origin (or none) are refused.
- A stranger cannot see a game's hidden cards, act in it or join it; a non-staff user cannot reach
  the tournament admin or its actions.
"""

from __future__ import annotations

import random
import secrets
import urllib.parse

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribsite.asgi import application
from cribsite.routing import websocket_urlpatterns
from games.play import services
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
        self.users = {"player": self.alice, "opponent": self.bob, "stranger": self.carol, "anonymous": None}

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
        }.get(name, 1 if converter == "int" else "x")

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
        if converter == "int":
            return data.draw(st.one_of(st.just(real), st.integers(0, 2**63 - 1)), label=name)
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


# --- CSRF ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["player", "anonymous"])
def test_every_post_needs_the_csrf_token(world, role):
    client = world.client(role, enforce_csrf_checks=True)
    before = world.snapshot()
    unprotected = []
    for route in ROUTES:
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
    return [
        Route("/" + str(pattern.pattern), None, ()).fill(lambda name, conv, t: ids.get(name, 1))
        for pattern in websocket_urlpatterns
    ]


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
    for route in ROUTES:
        if not any(name == "game_id" for name, _ in route.params):
            continue
        for headers in ({}, HTMX):
            response = client.get(route.fill(world.value), headers=headers)
            assert response.status_code in (302, 403, 404, 405), (route.template, response.status_code)
            assert not cards_in(response.content.decode(errors="replace"), hidden), route.template


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
