"""Hostile input, fuzzed: random and malformed data posted (and got) to every endpoint of the site
and the tournament admin as the player, the opponent, a stranger and an anonymous visitor. Never a
500, a refused request changes nothing, and a stranger or a visitor never changes the game; a null
character anywhere is a 400."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.ops.security_support import (
    HTMX,
    PATH_VALUES,
    ROUTES,
    _quiet,  # noqa: F401  autouse: fixed secrets, no rate limits
)
from tests.ops.urls import Route

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

ROLES = ("player", "opponent", "stranger", "anonymous")

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
