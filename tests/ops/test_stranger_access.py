"""Authorisation: a stranger cannot open a game's socket, see its hidden cards, act in it or take a
seat; a user without staff permissions cannot reach the tournament admin or its actions."""

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

from cribsite.asgi import application
from games.play.models import Game, Seat
from tests.live.support import load, session_key
from tests.ops.security_support import (
    HTMX,
    ROUTES,
    _quiet,  # noqa: F401  autouse: fixed secrets, no rate limits
)
from tests.play.factories import play_out
from tests.play.test_hidden_information import cards_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


# --- a stranger and a private game ----------------------------------------------------------------


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
