"""What the desk does reaches open pages over their sockets: an announcement on a player's board and in
their lobby, the tournament page's facts after the start, and a game's clock once both players'
boards are open."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application
from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.live.support import board_version
from tests.play.factories import socket_headers

from .helpers import active_matches, make_players, make_tournament

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


def _running(**fields):
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN, name="Club Cup", **fields)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    return t, m, m.entrant1.user, m.entrant2.user


async def _connect(path: str, user=None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, path, headers=await sync_to_async(socket_headers)(user))
    assert (await socket.connect())[0]
    return socket


async def _next_board(socket: WebsocketCommunicator) -> str:
    for _ in range(6):  # presence lines may come between boards
        pushed = await socket.receive_from(timeout=10)
        if board_version(pushed) is not None:
            return pushed
    raise AssertionError("no board came")


async def test_an_announcement_is_pushed_to_the_open_board_and_lobby():
    t, m, player, _ = await sync_to_async(_running)()
    board = await _connect(f"/ws/game/{m.game_id}/", player)
    lobby = await _connect("/ws/lobby/", player)
    try:
        first = await _next_board(board)
        await sync_to_async(services.tournament_announce)(tournament_id=t.pk, text="Prizes at nine.")
        pushed = await _next_board(board)
        assert board_version(pushed) == board_version(first) + 1
        assert "Club Cup, from the director at" in pushed and "Prizes at nine." in pushed
        lists = await lobby.receive_from(timeout=10)
        assert 'id="lobby-lists"' in lists and "Prizes at nine." in lists
    finally:
        await board.disconnect(timeout=10)
        await lobby.disconnect(timeout=10)


async def test_the_tournament_pages_facts_follow_the_start():
    t = await sync_to_async(make_tournament)(await sync_to_async(make_players)(2, "f"), name="Fact Check")
    page = await _connect(f"/ws/tournament/{t.pk}/")
    try:
        first = await page.receive_from(timeout=10)
        assert "open until the start" in first and 'class="t-facts"' in first
        await sync_to_async(services.tournament_start)(tournament_id=t.pk)
        pushed = await page.receive_from(timeout=10)
        assert 'hx-swap-oob="morph"' in pushed
        assert "closed at the start" in pushed and "Running: round 1" in pushed
    finally:
        await page.disconnect(timeout=10)


async def test_the_clock_starts_when_the_second_player_opens_the_board():
    t, m, first, second = await sync_to_async(_running)(turn_timer=30)
    one = await _connect(f"/ws/game/{m.game_id}/", first)
    try:
        await _next_board(one)
        game = await sync_to_async(Game.objects.get)(pk=m.game_id)
        assert game.turn_timer == 0  # one player waiting alone: no clock
        two = await _connect(f"/ws/game/{m.game_id}/", second)
        try:
            await _next_board(two)
            pushed = await _next_board(one)  # the first player's board is drawn again, with the clock
            game = await sync_to_async(Game.objects.get)(pk=m.game_id)
            assert game.turn_timer == 30 and game.turn_started_at is not None
            assert board_version(pushed) == game.version and 'class="turn-timer' in pushed
        finally:
            await two.disconnect(timeout=10)
    finally:
        await one.disconnect(timeout=10)
