"""Watching a tournament match: the spectator's board shows only what the table shows, anyone may
watch a tournament game (and any game not made private: tests/pages/test_watch.py), and the
spectator's socket follows the game without the players' presence or messages."""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from cribsite.asgi import application
from games.engine.cards import DECK, Card
from games.engine.game import GameState, legal_actions
from games.engine.rules import HouseRules
from games.play import services as game_services
from games.play.chat import MESSAGES
from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Match
from games.tournaments.watch import render_watch_oob
from tests.play.factories import act, as_form, fixed_secrets, logged_in, make_user, socket_headers
from tests.play.test_hidden_information import cards_in, without_last_deal

from .helpers import active_matches, make_players, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "tournament-watch")


def public_cards(state: GameState) -> set[Card]:
    """What the table shows: the cut, the starter, the cards laid in the play, the counted hands."""
    seen = {c for c in state.cut_cards if c is not None} | {c for _, c in state.plays}
    if state.starter is not None:
        seen.add(state.starter)
    for entry in state.show:
        seen |= set(entry.cards) | {entry.starter}
    return seen


def _knockout(players: int = 4, **fields):
    t = make_tournament(make_players(players), format="ko", **fields)
    services.tournament_start(tournament_id=t.pk)
    return t, active_matches(t)[0]


def _watch_url(t, m) -> str:
    return reverse("tournaments:watch", args=[t.pk, m.pk])


@pytest.mark.slow
def test_a_spectator_never_sees_a_card_the_table_has_not_shown() -> None:
    t, m = _knockout()
    game = Game.objects.get(pk=m.game_id)
    users = {0: m.entrant1.user, 1: m.entrant2.user}
    stranger = logged_in(make_user("spectator"))
    rng = random.Random(11)
    checked = shown_in_play = 0
    badges = set()
    while True:
        game.refresh_from_db()
        state = game_services.load_state(game)
        hidden = set(DECK) - public_cards(state)
        for where, html in (
            ("page", Client().get(_watch_url(t, m)).content.decode()),
            ("signed-in page", stranger.get(_watch_url(t, m)).content.decode()),
            ("push", render_watch_oob(game.pk)),
        ):
            html = without_last_deal(html, state)
            leaked = cards_in(html, hidden)
            assert not leaked, f"{where} v{game.version} {state.phase}: {leaked}"
            checked += 1
        shown_in_play += bool(state.plays) and bool(cards_in(html, [c for _, c in state.plays]))
        badges.update(re.findall(r'seat--to-play"[^>]*data-turn="([a-z ]+)"', html))
        if game.status != Game.Status.ACTIVE:
            break
        seat = min(state.to_act)
        act(game, users[seat], as_form(rng.choice(legal_actions(state, seat))))
    assert checked > 300 and shown_in_play > 50  # a whole game, and the play itself was on show
    # The spectator's badges say what the seat does (tournaments count for the players, and the
    # pone cuts the pack).
    assert badges == {"to play", "to cut"}
    assert "wins" in render_watch_oob(game.pk)


def test_a_private_game_cannot_be_watched_nor_a_match_from_another_tournament() -> None:
    t, m = _knockout()
    players = [m.entrant1.user, m.entrant2.user]
    seek = game_services.game_create_seek(user=players[0], rules=HouseRules(), private=True)
    private = game_services.game_accept(user=players[1], game_id=seek.pk)
    assert render_watch_oob(private.pk) is None
    assert render_watch_oob(private.pk, players[1]) is not None  # its players see it
    other = make_tournament(make_players(2, prefix="o"), format="ko", name="Other")
    services.tournament_start(tournament_id=other.pk)
    (theirs,) = active_matches(other)
    # A match of another tournament, and a match whose game is not there yet: no board.
    assert Client().get(reverse("tournaments:watch", args=[t.pk, theirs.pk])).status_code == 404
    final = Match.objects.get(tournament=t, game__isnull=True)
    assert Client().get(_watch_url(t, final)).status_code == 404


def test_the_tournament_page_offers_watching_to_everyone_but_the_players() -> None:
    t, m = _knockout()
    page = Client().get(t.get_absolute_url()).content.decode()
    assert f'href="{_watch_url(t, m)}">Watch' in page
    assert f'<a href="{_watch_url(t, m)}" aria-label="Watch semi-finals match 1">' in page  # the bracket
    player_page = logged_in(m.entrant1.user).get(t.get_absolute_url()).content.decode()
    assert f'href="{_watch_url(t, m)}"' not in player_page
    assert f'href="/games/{m.game_id}/">Play' in player_page
    watch = Client().get(_watch_url(t, m)).content.decode()
    assert f'data-socket="/ws/watch/{m.game_id}/"' in watch and "<form" not in watch.split('id="board"')[1]


def _private() -> Game:
    seek = game_services.game_create_seek(user=make_user("f1"), rules=HouseRules(), private=True)
    return game_services.game_accept(user=make_user("f2"), game_id=seek.pk)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_spectator_socket_follows_the_game_and_nothing_else():
    t, m = await sync_to_async(_knockout)()
    private = await sync_to_async(_private)()
    refused = WebsocketCommunicator(application, f"/ws/watch/{private.pk}/", headers=socket_headers())
    connected, code = await refused.connect()
    assert not connected and code == 4403

    spectator = WebsocketCommunicator(application, f"/ws/watch/{m.game_id}/", headers=socket_headers())
    assert (await spectator.connect())[0]
    try:
        first = await spectator.receive_from(timeout=10)
        assert 'id="board"' in first and 'hx-swap-oob="morph"' in first and "board-page--watch" in first

        def cut():
            game = Game.objects.get(pk=m.game_id)
            act(game, m.entrant1.user, as_form(legal_actions(game_services.load_state(game), 0)[0]))
            game_services.game_say(user=m.entrant2.user, game_id=game.pk, message=next(iter(MESSAGES)))
            game.refresh_from_db()
            return game_services.load_state(game), game.version

        state, version = await sync_to_async(cut)()
        pushed = await spectator.receive_from(timeout=10)
        assert f'data-version="{version}"' in pushed
        assert not cards_in(pushed, set(DECK) - public_cards(state))
        assert await spectator.receive_nothing(timeout=0.5)  # not the players' quick message
    finally:
        await spectator.disconnect(timeout=10)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_heartbeat_keeps_a_player_s_presence_and_not_a_spectator_s(monkeypatch):
    """The process's watch says its sockets are alive in one batch: a player's, not a spectator's."""
    import asyncio

    from games.play import layer_watch, presence
    from games.play.consumers import GameConsumer, SpectatorConsumer

    loop = asyncio.get_running_loop()
    heard = asyncio.Event()
    beats = []

    def record(channel_names):
        beats.append(sorted(channel_names))
        loop.call_soon_threadsafe(heard.set)

    monkeypatch.setattr(presence, "heartbeats", record)
    watch = layer_watch.LayerWatch()
    sockets = []
    for kind in (GameConsumer, SpectatorConsumer):
        socket = kind()
        socket.game_id, socket.channel_name, socket.sent_version = 1, f"{kind.__name__}-channel", 10**6
        sockets.append(socket)
        watch.join(socket)
    try:
        await asyncio.wait_for(heard.wait(), 10)
    finally:
        for socket in sockets:
            watch.leave(socket)
    assert beats[0] == ["GameConsumer-channel"]
