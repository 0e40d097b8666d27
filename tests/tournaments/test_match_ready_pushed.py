"""A new tournament match reaches its players' open lobbies at once, pushed: the game in their list
and "Your match is ready" with the board's link, without a reload; one push however many games a
round starts; and the notice goes once the player has opened the board."""

from __future__ import annotations

from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from cribsite.asgi import application
from games.play import broadcast
from games.play.models import Connection
from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.services.entered_results import Entry
from tests.play.factories import logged_in, socket_headers

from .helpers import active_matches, make_players, make_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


async def _connect(path: str, user=None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, path, headers=await sync_to_async(socket_headers)(user))
    assert (await socket.connect())[0]
    return socket


@pytest.mark.asyncio
async def test_a_new_match_is_pushed_to_the_open_lobby_with_your_match_is_ready():
    players = await sync_to_async(make_players)(4, "r")
    t = await sync_to_async(make_tournament)(players, format=Tournament.Format.ROUND_ROBIN, name="Ready Cup")
    player, stranger = players[0], await sync_to_async(make_players)(1, "s")
    lobby = await _connect("/ws/lobby/", player)
    other = await _connect("/ws/lobby/", stranger[0])
    try:
        await sync_to_async(services.tournament_start)(tournament_id=t.pk)
        lists = await lobby.receive_from(timeout=10)
        (m,) = [m for m in await sync_to_async(active_matches)(t) if player.pk in
                (m.entrant1.user_id, m.entrant2.user_id)]
        assert 'id="lobby-lists"' in lists and 'hx-swap-oob="morph"' in lists
        assert "Your match is ready: Round 1, against" in lists and f'href="/games/{m.game_id}/"' in lists
        assert "Open the board" in lists
        assert await lobby.receive_nothing(timeout=0.5)  # two games started: one push, not two
        theirs = await other.receive_from(timeout=10)  # every lobby redraws, each for its own user
        assert "Your match is ready" not in theirs
    finally:
        await lobby.disconnect(timeout=10)
        await other.disconnect(timeout=10)


def test_the_notice_goes_once_the_board_is_opened(monkeypatch):
    pushes = []
    monkeypatch.setattr(broadcast, "lobby_changed", lambda *a, **k: pushes.append(a))
    players = make_players(2, "o")
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN, name="Open Cup")
    services.tournament_start(tournament_id=t.pk)
    assert len(pushes) == 1
    (m,) = active_matches(t)
    client: Client = logged_in(m.entrant1.user)
    assert "Your match is ready: Round 1, against" in client.get("/lobby/").content.decode()
    assert client.get(f"/games/{m.game_id}/").status_code == 200  # served the board; no socket needed
    assert not Connection.objects.filter(game_id=m.game_id).exists()
    assert "Your match is ready" not in client.get("/lobby/").content.decode()
    assert "Your match is ready" in logged_in(m.entrant2.user).get("/lobby/").content.decode()
    m.refresh_from_db()
    assert (m.board_served_game1, m.board_served_game2) == (m.game_id, None)


async def _board_with(socket: WebsocketCommunicator, words: str) -> str:
    for _ in range(8):  # presence lines and earlier boards may come first
        pushed = await socket.receive_from(timeout=10)
        if words in pushed:
            return pushed
    raise AssertionError(f"no board said {words!r}")


@pytest.mark.asyncio
async def test_the_finished_board_says_the_next_match_is_ready():
    players = await sync_to_async(make_players)(4, "n")
    t = await sync_to_async(make_tournament)(players, format=Tournament.Format.ROUND_ROBIN, name="Next Cup",
                                             auto_advance=False)
    await sync_to_async(services.tournament_start)(tournament_id=t.pk)
    first = [m for m in await sync_to_async(active_matches)(t) if players[0].pk in
             (m.entrant1.user_id, m.entrant2.user_id)][0]
    board = await _connect(f"/ws/game/{first.game_id}/", players[0])
    try:
        entries = [Entry(m.pk, m.entrant1_id) for m in await sync_to_async(active_matches)(t)]
        await sync_to_async(services.round_set_results)(tournament_id=t.pk, entries=entries, reason="")
        over = await _board_with(board, "Back to Next Cup")
        assert "Your next match is ready" not in over  # round 2 waits for the director
        await sync_to_async(services.tournament_advance)(tournament_id=t.pk)
        (nxt,) = [m for m in await sync_to_async(active_matches)(t) if players[0].pk in
                  (m.entrant1.user_id, m.entrant2.user_id)]
        pushed = await _board_with(board, "Your next match is ready: open the board")
        assert f'href="/games/{nxt.game_id}/"' in pushed
    finally:
        await board.disconnect(timeout=10)


def test_a_board_opened_before_the_mark_existed_keeps_its_news_down():
    """The mark's migration (0009), run on the schema of its time, and the marks kept by the rename
    that followed it (0011)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    migration = import_module("games.tournaments.migrations.0009_match_board_served")
    players = make_players(2, "m")
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN, name="Mark Cup")
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    Connection.objects.create(game_id=m.game_id, user=m.entrant2.user, channel_name="earlier-tab",
                              last_seen=timezone.now(), closed_at=timezone.now())
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    then = [("tournaments", "0010_result_entered_by_the_director")]
    try:
        executor.migrate(then)
        executor.loader.build_graph()
        migration.mark_boards_opened(executor.loader.project_state(then).apps, connection.schema_editor())
    finally:
        executor.loader.build_graph()
        executor.migrate(latest)
    m.refresh_from_db()
    assert (m.board_served_game1, m.board_served_game2) == (None, m.game_id)
    assert "Your match is ready" not in logged_in(m.entrant2.user).get("/lobby/").content.decode()
    assert "Your match is ready" in logged_in(m.entrant1.user).get("/lobby/").content.decode()
