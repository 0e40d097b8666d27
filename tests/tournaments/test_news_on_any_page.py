"""A new tournament match reaches its players on any page they have open, not only the lobby and the
board: every page of a signed-in player listens (``/ws/news/``, which also keeps the menu's "Your
turn (N)" live), the news is looked for when it opens only for an entrant of an event in progress,
the round's start pushes "Your match is ready" to each of the match's players, and no one else hears
of it."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cribsite.asgi import application
from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.services.entered_results import Entry
from tests.play.factories import logged_in, socket_headers

from .helpers import active_matches, make_players, make_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

NEWS_SOCKET = 'data-socket="/ws/news/"'


async def _connect(user) -> WebsocketCommunicator:
    headers = await sync_to_async(socket_headers)(user)
    socket = WebsocketCommunicator(application, "/ws/news/", headers=headers)
    assert (await socket.connect())[0]
    return socket


def _mine(t, user):
    (m,) = [m for m in active_matches(t) if user.pk in (m.entrant1.user_id, m.entrant2.user_id)]
    return m


@pytest.mark.asyncio
async def test_the_new_match_is_pushed_to_a_page_that_is_not_a_board():
    players = await sync_to_async(make_players)(4, "w")
    t = await sync_to_async(make_tournament)(players, format=Tournament.Format.ROUND_ROBIN, name="News Cup")
    await sync_to_async(services.tournament_start)(tournament_id=t.pk)
    me = players[0]
    first = await sync_to_async(_mine)(t, me)
    others = [m for m in await sync_to_async(active_matches)(t) if m.pk != first.pk]
    outsider = (await sync_to_async(make_players)(1, "x"))[0]
    page, stranger = await _connect(me), await _connect(outsider)
    try:
        opened = await page.receive_from(timeout=10)  # on connect: the news so far
        assert 'id="site-news"' in opened and "Your match is ready: Round 1, against" in opened
        assert f'data-news="match-{first.game_id}"' in opened
        assert "Your match is ready" not in await stranger.receive_from(timeout=10)
        # The player opens the first board: that news is done, on this page too.
        board = await sync_to_async(lambda: logged_in(me).get(f"/games/{first.game_id}/"))()
        assert board.status_code == 200 and "Your match is ready" not in board.content.decode()
        dropped = await page.receive_from(timeout=10)
        assert 'id="site-news"' in dropped and "Your match is ready" not in dropped
        entries = [Entry(m.pk, m.entrant1_id) for m in (first, *others)]
        await sync_to_async(services.round_set_results)(tournament_id=t.pk, entries=entries, reason="")
        pushed = await page.receive_from(timeout=10)
        nxt = await sync_to_async(_mine)(t, me)
        assert "Your match is ready: Round 2, against" in pushed
        assert f'href="/games/{nxt.game_id}/"' in pushed and "Open the board" in pushed
        assert f"match-{first.game_id}" not in pushed
        assert 'hx-swap-oob="true"' in pushed
        assert await page.receive_nothing(timeout=0.5)  # one push per match, not one per game of the round
        assert await stranger.receive_nothing(timeout=0.5)  # another player's news never reaches them
    finally:
        await page.disconnect(timeout=10)
        await stranger.disconnect(timeout=10)


@pytest.mark.asyncio
async def test_the_news_goes_from_other_pages_once_the_board_is_opened():
    players = await sync_to_async(make_players)(2, "b")
    t = await sync_to_async(make_tournament)(players, format=Tournament.Format.ROUND_ROBIN, name="Board Cup")
    await sync_to_async(services.tournament_start)(tournament_id=t.pk)
    me = players[0]
    m = await sync_to_async(_mine)(t, me)
    page = await _connect(me)
    board = None
    try:
        assert f'data-news="match-{m.game_id}"' in await page.receive_from(timeout=10)
        headers = await sync_to_async(socket_headers)(me)
        board = WebsocketCommunicator(application, f"/ws/game/{m.game_id}/", headers=headers)
        assert (await board.connect())[0]
        pushed = await page.receive_from(timeout=10)
        assert 'data-sent="0"' in pushed and "Your match is ready" not in pushed
    finally:
        await page.disconnect(timeout=10)
        if board is not None:
            await board.disconnect(timeout=10)


@pytest.mark.asyncio
async def test_an_anonymous_socket_is_refused():
    socket = WebsocketCommunicator(application, "/ws/news/", headers=socket_headers())
    connected, code = await socket.connect()
    assert not connected and code == 4401


def test_every_page_of_a_player_listens_once_where_no_socket_of_its_own_serves():
    entrant, outsider = make_players(2, "l")
    t = make_tournament([entrant, make_players(1, "m")[0]], format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    client = logged_in(entrant)
    m = _mine(t, entrant)
    for user in (entrant, outsider):
        for path in ("/rules/", "/tournaments/", f"/accounts/u/{user.username}/", "/games/mine/",
                     f"/players/{user.username}/stats/", "/puzzles/"):
            response = logged_in(user).get(path, follow=True)
            assert response.status_code == 200, path
            assert response.content.decode().count(NEWS_SOCKET) == 1, (user, path)
    other_event = make_tournament(name="Winter Open")
    assert client.get(other_event.get_absolute_url()).content.decode().count(NEWS_SOCKET) == 1
    # The lobby, the board and the player's own event page carry the count on their own sockets.
    for path in ("/lobby/", f"/games/{m.game_id}/", t.get_absolute_url()):
        assert NEWS_SOCKET not in client.get(path).content.decode(), path
    client.logout()
    assert NEWS_SOCKET not in client.get("/rules/").content.decode()  # a visitor's page


def test_a_page_asks_nothing_and_its_socket_looks_for_news_once_only_for_an_entrant():
    from games.play.news import render_opening

    entrant, other = make_players(2, "q")
    outsider, later = make_players(2, "o")
    t = make_tournament([entrant, other], format=Tournament.Format.ROUND_ROBIN)
    make_tournament([later], name="Autumn Open")  # entered, but it has not started
    services.tournament_start(tournament_id=t.pk)
    with CaptureQueriesContext(connection) as page:
        assert logged_in(entrant).get("/rules/").status_code == 200
    assert not [q["sql"] for q in page.captured_queries if "tournaments_entrant" in q["sql"]]
    opened = render_opening(entrant)
    assert opened.startswith('<span id="your-turn-count"') and "Your match is ready" in opened
    for user in (outsider, later):
        with CaptureQueriesContext(connection) as opening:
            assert render_opening(user) == '<span id="your-turn-count" hx-swap-oob="true"></span>'
        asked = [q["sql"] for q in opening.captured_queries if "tournaments_entrant" in q["sql"]]
        assert len(asked) == 1, asked  # whether any news may be due: no news is drawn
