"""The game socket: who may connect, and what each player is pushed when the other moves (their own
view, the current board on reconnecting, nothing to the page whose answer carried the board, no board
drawn twice); a socket never moves, a push does not wait for channels' shared thread, and a pushed
board marks its stages when asked."""

from __future__ import annotations

import logging
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

from cribsite.asgi import application
from games.engine.actions import action_to_dict
from games.engine.view import view
from games.play import services
from games.play.models import Game
from tests.play.factories import socket_headers
from tests.play.socket_support import (
    _connect,
    _drain,
    _headers_for,
    _receive_board,
    _two_player_game,
    _version,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_anonymous_and_strangers_are_refused():
    game, _alice, _bob, carol = await sync_to_async(_two_player_game)()
    for headers in (await sync_to_async(socket_headers)(None), await sync_to_async(socket_headers)(carol)):
        communicator = WebsocketCommunicator(application, f"/ws/game/{game.pk}/", headers=headers)
        connected, _ = await communicator.connect()
        assert not connected
        await communicator.disconnect(timeout=10)


async def test_each_player_is_pushed_their_own_view_after_the_other_moves():
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    h_alice, h_bob = await sync_to_async(_headers_for)(alice, bob)
    sock_alice = await _connect(game.pk, h_alice)
    sock_bob = await _connect(game.pk, h_bob)
    # Both get the current board on connect.
    assert _version(await _receive_board(sock_alice)) == game.version
    assert _version(await _receive_board(sock_bob)) == game.version

    def cut_and_discard():
        for user, pos in ((alice, 5), (bob, 40)):
            g = Game.objects.get(pk=game.pk)
            services.game_act(user=user, game_id=g.pk, version=g.version,
                              action={"type": "cut_for_deal", "position": pos})
        g = Game.objects.get(pk=game.pk)
        state = services.load_state(g)
        discard = next(a for a in view(state, 0).legal_actions)
        services.game_act(user=alice, game_id=g.pk, version=g.version,
                          action={k: v for k, v in action_to_dict(discard).items() if k != "seat"})
        g.refresh_from_db()
        return g, services.load_state(g)

    g, state = await sync_to_async(cut_and_discard)()
    # Bob receives boards up to the latest version, rendered for him: his cards up, none of Alice's.
    html = ""
    while True:
        html = await _receive_board(sock_bob)
        if _version(html) == g.version:
            break
    assert 'hx-swap-oob="morph"' in html  # morphed into the board shown, not put in its place
    for card in state.hands[1]:
        assert f'value="{card}"' in html
    for card in state.hands[0] + state.discards[0]:
        assert str(card) not in re.sub(r"<svg.*?</svg>", "", html, flags=re.S)
    await sock_alice.disconnect(timeout=10)
    await sock_bob.disconnect(timeout=10)


async def test_a_reconnecting_socket_gets_the_current_board():
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    (h_alice,) = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    assert _version(await _receive_board(sock)) == game.version
    await sock.disconnect(timeout=10)

    def bob_cuts():
        g = Game.objects.get(pk=game.pk)
        services.game_act(
            user=bob, game_id=g.pk, version=g.version, action={"type": "cut_for_deal", "position": 1}
        )
        return Game.objects.get(pk=game.pk).version

    version = await sync_to_async(bob_cuts)()
    sock = await _connect(game.pk, h_alice)
    assert _version(await _receive_board(sock)) == version
    await sock.disconnect(timeout=10)


async def test_a_socket_never_moves():
    game, alice, _bob, _ = await sync_to_async(_two_player_game)()
    (h_alice,) = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    await _receive_board(sock)
    await sock.send_to(text_data='{"type": "cut_for_deal", "position": 3}')
    html = await _receive_board(sock)
    assert _version(html) == game.version
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).version)() == game.version
    await sock.disconnect(timeout=10)


async def _connect_tab(game_id: int, headers, tab: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/game/{game_id}/?tab={tab}", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_the_page_that_moved_is_not_pushed_the_board_its_answer_carries():
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    h_alice, h_bob = await sync_to_async(_headers_for)(alice, bob)
    here = await _connect_tab(game.pk, h_alice, "alice-tab-one")
    other_tab = await _connect_tab(game.pk, h_alice, "alice-tab-two")
    opponent = await _connect_tab(game.pk, h_bob, "bob-tab-one")
    for sock in (here, other_tab, opponent):
        await _drain(sock)

    def post(user, tab: str, position: int) -> tuple[int, str]:
        client = Client(headers={"HX-Request": "true", "X-Board-Tab": tab})
        client.force_login(user)
        g = Game.objects.get(pk=game.pk)
        response = client.post(f"/games/{g.pk}/act/", {"type": "cut_for_deal", "position": position,
                                                         "version": g.version})
        return response.status_code, response.content.decode()

    status, answer = await sync_to_async(post)(alice, "alice-tab-one", 5)
    assert status == 200 and _version(answer) == game.version + 1
    assert _version(await _receive_board(other_tab)) == game.version + 1
    assert _version(await _receive_board(opponent)) == game.version + 1
    assert not [m for m in await _drain(here) if 'id="board"' in m]

    # Naming someone else's page spares nobody: only the mover's own page skips the push.
    status, _answer = await sync_to_async(post)(bob, "alice-tab-one", 40)
    assert status == 200
    assert _version(await _receive_board(here)) == game.version + 2
    assert _version(await _receive_board(opponent)) == game.version + 2
    for sock in (here, other_tab, opponent):
        await sock.disconnect(timeout=10)


async def test_a_board_already_sent_is_not_drawn_again_for_a_later_message(monkeypatch):
    """A board is drawn from the game as it is: when two moves' messages arrive after both moves,
    the first push carries both and the second message costs no render. Other sockets, newer
    versions and a page's own request for a board are drawn as ever."""
    from games.play.board import player as board

    renders = []
    original = board.render_board_oob

    def counted(*args, **kwargs):
        renders.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(board, "render_board_oob", counted)
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    h_alice, = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    await _receive_board(sock)
    layer, group = get_channel_layer(), f"game-{game.pk}"

    def both_cut() -> None:
        with transaction.atomic():  # both moves' messages go out after both have committed
            for mover, position in ((bob, "5"), (alice, "40")):
                version = Game.objects.get(pk=game.pk).version
                services.game_act(user=mover, game_id=game.pk, version=version,
                                  action={"type": "cut_for_deal", "position": position})

    await sync_to_async(both_cut)()
    boards = [m for m in await _drain(sock) if 'id="board"' in m]
    assert [_version(b) for b in boards] == [game.version + 2]
    renders.clear()
    await layer.group_send(group, {"type": "game.changed", "game": game.pk, "version": game.version + 1})
    await layer.group_send(group, {"type": "game.changed", "game": game.pk, "version": game.version + 2})
    assert not [m for m in await _drain(sock) if 'id="board"' in m] and renders == []
    await sock.send_to(text_data="sync")  # a page asking for its board always gets it
    assert _version(await _receive_board(sock)) == game.version + 2
    await sock.disconnect(timeout=10)


async def test_a_push_does_not_queue_behind_channels_shared_thread(monkeypatch):
    """Channels would hop to its one shared thread before every message; these consumers close
    their database connections in their own calls instead, so no message waits for that thread."""
    import channels.consumer

    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    h_alice, = await sync_to_async(_headers_for)(alice)
    sock = await _connect(game.pk, h_alice)
    await _receive_board(sock)
    await sync_to_async(services.game_act)(user=bob, game_id=game.pk, version=game.version,
                                           action={"type": "cut_for_deal", "position": "5"})
    assert _version(await _receive_board(sock)) == game.version + 1
    assert hops == []
    await sock.disconnect(timeout=10)


async def test_a_message_without_a_handler_is_an_error_as_in_channels():
    from games.play.consumers import GameConsumer

    with pytest.raises(ValueError, match="No handler for message type game.unknown"):
        await GameConsumer().dispatch({"type": "game.unknown"})


async def test_a_pushed_board_marks_its_stages_when_asked(caplog):
    """``bench.load --stages`` times the push's way from these marks (games/infra/timeline.py)."""
    game, alice, bob, _ = await sync_to_async(_two_player_game)()
    (h_bob,) = await sync_to_async(_headers_for)(bob)
    sock_bob = await _connect(game.pk, h_bob)
    assert _version(await _receive_board(sock_bob)) == game.version

    def alice_cuts():
        services.game_act(user=alice, game_id=game.pk, version=game.version,
                          action={"type": "cut_for_deal", "position": 5})

    with caplog.at_level(logging.DEBUG, logger="games.timeline"):
        await sync_to_async(alice_cuts)()
        assert _version(await _receive_board(sock_bob)) == game.version + 1
    marks = [r.getMessage() for r in caplog.records if r.name == "games.timeline"]
    moved = f"game={game.pk} version={game.version + 1}"
    assert [m.split()[0] for m in marks] == ["stage=commit", "stage=received", "stage=drawn", "stage=sent"]
    assert all(moved in m for m in marks)
    assert all(f"user={bob.pk}" in m for m in marks[1:])
    await sock_bob.disconnect(timeout=10)
