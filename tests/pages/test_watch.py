"""Watch: the live games anyone may open as spectators, tournament matches first, each with its
players and score; a private game is neither listed nor open to strangers; the list is drawn once
for each change, whoever reads it; its socket is pushed each change; and the spectator's board of
a game between friends, on its own page, pushed, or on the home page, shows no hidden card."""

from __future__ import annotations

import html
import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client

from cribsite.asgi import application
from games.engine.cards import DECK
from games.engine.game import legal_actions
from games.engine.rules import HouseRules
from games.pages import watching
from games.play import broadcast, services
from games.play.board.spectator import render_watch_oob
from games.play.models import Game
from games.tournaments import services as tournament_services
from tests.play.factories import (
    act,
    as_form,
    computer_game,
    fixed_secrets,
    human_game,
    logged_in,
    make_user,
    socket_headers,
)
from tests.play.test_hidden_information import cards_in, without_last_deal
from tests.tournaments.helpers import active_matches, make_players, make_tournament
from tests.tournaments.test_watch import public_cards

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    fixed_secrets(monkeypatch, "watch-list")
    cache.clear()


def _private(a, b) -> Game:
    seek = services.game_create_seek(user=a, rules=HouseRules(), private=True)
    return services.game_accept(user=b, game_id=seek.pk)


def _list_of(page: str) -> str:
    return page[page.index('<div id="watch-list"'):page.index("</ul>")]


def _shown(state) -> set:
    """What the table has shown: ``public_cards``, and the cards cut for deal before a recut."""
    cut = {c for e in state.log if e.kind in ("cut", "recut", "dealer") for c in e.cards}
    return public_cards(state) | cut


def _listed(page: str) -> list[str]:
    return re.findall(r'<li class="live-game[^"]*" id="live-game-(\d+)"', page)


def test_the_list_holds_the_live_games_anyone_may_watch_tournament_matches_first():
    t = make_tournament(make_players(2), format="ko", name="Friday Knockout")
    tournament_services.tournament_start(tournament_id=t.pk)
    (match,) = active_matches(t)
    alice, bob = make_user("alice"), make_user("bob")
    computer = computer_game(make_user("carol"))
    friends = human_game(alice, bob)
    hidden = _private(make_user("dave"), make_user("erin"))
    seek = services.game_create_seek(user=make_user("fay"), rules=HouseRules(), days_per_move=2)
    own_pace = services.game_accept(user=make_user("gus"), game_id=seek.pk)
    one_device = services.game_create_pass_and_play(
        user=make_user("jo"), rules=HouseRules(), seats=[{"kind": "person", "name": "Ann"},
                                                         {"kind": "person", "name": "Ben"}])
    ended = human_game(make_user("hal"), make_user("ivy"))
    act(ended, ended.seats.get(index=0).user, {"type": "resign"})
    rng = random.Random(4)
    while sum(services.load_state(friends).scores) == 0:  # a score to show
        friends.refresh_from_db()
        state = services.load_state(friends)
        seat = min(state.to_act)
        act(friends, (alice, bob)[seat], as_form(rng.choice(legal_actions(state, seat))))
        friends.refresh_from_db()
    page = html.unescape(Client().get("/watch/").content.decode())
    assert _listed(page) == [str(match.game_id), str(friends.pk), str(computer.pk)]
    assert not {str(hidden.pk), str(own_pace.pk), str(one_device.pk)} & set(_listed(page))
    assert "Friday Knockout" in page and "Against the computer" in page
    scores = services.load_state(friends).scores
    row = page.split(f'id="live-game-{friends.pk}"')[1].split("</li>")[0]
    assert re.findall(r'data-score="(\d+)"', row) == [str(s) for s in scores]
    assert f"Watch alice {scores[0]} against bob {scores[1]}" in row
    assert f'href="/games/{friends.pk}/watch/"' in row
    assert 'href="/watch/"' in Client().get("/rules/").content.decode()  # in the menu


def test_a_private_game_is_refused_to_strangers_and_open_to_its_players():
    alice, bob = make_user("alice"), make_user("bob")
    game = _private(alice, bob)
    url = f"/games/{game.pk}/watch/"
    for client in (Client(), logged_in(make_user("stranger"))):
        response = client.get(url)
        assert response.status_code == 403
        assert "This game is private: only its players can see it." in response.content.decode()
    assert render_watch_oob(game.pk) is None
    response = logged_in(alice).get(url)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    waiting = services.game_create_seek(user=make_user("carol"), rules=HouseRules())
    response = Client().get(f"/games/{waiting.pk}/watch/")
    assert response.status_code == 404 and "has not begun" in response.content.decode()
    assert Client().get("/games/999999/watch/").status_code == 404
    called_off = human_game(make_user("dan"), make_user("eve"))
    services.game_abort(user=called_off.seats.get(index=0).user, game_id=called_off.pk)
    response = Client().get(f"/games/{called_off.pk}/watch/")
    assert response.status_code == 404 and "called off" in response.content.decode()
    # A stranger who opens a player's board of a game anyone may watch is offered to watch it.
    open_game = human_game(make_user("fay"), make_user("gus"))
    page = logged_in(make_user("hal")).get(f"/games/{open_game.pk}/").content.decode()
    assert f'href="/games/{open_game.pk}/watch/">Watch this game' in page
    page = logged_in(make_user("ivy")).get(f"/games/{game.pk}/").content.decode()
    assert "This is not your game" in page and "/watch/" not in page.split("<main")[1]


def test_the_list_is_drawn_once_for_each_change_whoever_reads_it():
    human_game(make_user("alice"), make_user("bob"))
    before = watching.drawn
    pages = {_list_of(Client().get("/watch/").content.decode()) for _ in range(3)}
    pushes = {watching.list_html(watching.current_stamp(), oob=True) for _ in range(5)}
    assert watching.drawn - before == 1 and len(pages) == 1 and len(pushes) == 1
    assert 'id="watch-list" hx-swap-oob="morph"' in next(iter(pushes))
    broadcast.watch_list_changed()
    Client().get("/watch/")
    watching.list_html(watching.current_stamp(), oob=True)
    assert watching.drawn - before == 2


@pytest.mark.slow
def test_a_spectator_of_a_game_between_friends_never_sees_a_card_the_table_has_not_shown():
    alice, bob = make_user("alice"), make_user("bob")
    game = human_game(alice, bob)
    stranger = logged_in(make_user("stranger"))
    rng = random.Random(12)
    checked = shows = 0
    while game.status == Game.Status.ACTIVE and checked < 300:
        state = services.load_state(game)
        shows += state.phase == "show" and bool(state.show)
        hidden = set(DECK) - _shown(state)
        home = Client().get("/").content.decode()
        board = home[home.index('<div id="board"'):home.index('id="mine-h"')]  # not the day's puzzle
        for where, page in (("page", Client().get(f"/games/{game.pk}/watch/").content.decode()),
                            ("signed-in page", stranger.get(f"/games/{game.pk}/watch/").content.decode()),
                            ("push", render_watch_oob(game.pk)), ("home", board),
                            ("list", Client().get("/watch/").content.decode())):
            leaked = cards_in(without_last_deal(page, state), hidden)
            assert not leaked, f"{where} v{game.version} {state.phase}: {leaked}"
            checked += 1
        seat = min(state.to_act)
        act(game, (alice, bob)[seat], as_form(rng.choice(legal_actions(state, seat))))
        game.refresh_from_db()
    assert checked >= 300 and shows >= 3  # deals through to their shows, the hands laid open only then


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_watch_list_socket_sends_the_list_and_each_change():
    alice, bob = await sync_to_async(make_user)("alice"), await sync_to_async(make_user)("bob")
    game = await sync_to_async(human_game)(alice, bob)
    socket = WebsocketCommunicator(application, "/ws/watch-list/", headers=socket_headers())
    assert (await socket.connect())[0]
    try:
        first = await socket.receive_from(timeout=10)
        assert 'id="watch-list" hx-swap-oob="morph"' in first and f'id="live-game-{game.pk}"' in first
        # Changes in a burst: the socket is sent the latest once, not a list for each.
        for _ in range(5):
            await sync_to_async(broadcast.watch_list_changed)()
        assert 'id="watch-list"' in await socket.receive_from(timeout=10)
        assert await socket.receive_nothing(timeout=0.5)

        def until_a_score() -> list[int]:
            rng = random.Random(2)
            while True:
                game.refresh_from_db()
                state = services.load_state(game)
                if sum(state.scores):
                    return list(state.scores)
                seat = min(state.to_act)
                act(game, (alice, bob)[seat], as_form(rng.choice(legal_actions(state, seat))))

        scores = await sync_to_async(until_a_score)()
        while True:  # the game's start and each move that scored were pushed; the last holds the score
            pushed = await socket.receive_from(timeout=10)
            row = pushed.split(f'id="live-game-{game.pk}"')[1].split("</li>")[0]
            if re.findall(r'data-score="(\d+)"', row) == [str(s) for s in scores]:
                break
        assert await socket.receive_nothing(timeout=0.3)
    finally:
        await socket.disconnect(timeout=10)
