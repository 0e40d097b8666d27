"""Presence at the table and claiming the win: sockets and their heartbeats (spread over the
interval), a player who left rather than never came, the claim only after the absence limit on the
absent player's turn, and the presence line and its claim with every board that shows it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine.rules import HouseRules
from games.play import presence, services
from games.play.board.player import render_board_oob
from games.play.models import Connection, Game, Move
from tests.play.factories import away_for, computer_game, human_game, load, logged_in, make_user
from tests.play.online_support import (
    _beats_on_the_rows,  # noqa: F401  autouse: the socket rows are the beats
    _clear_cache,  # noqa: F401  autouse: an empty cache
    _to_play,
)

pytestmark = pytest.mark.django_db


# --- presence and claiming the win --------------------------------------------------------------


def test_presence_follows_sockets_and_heartbeats(alice, bob):
    game = human_game(alice, bob)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    (bob_seen,) = presence.table(game, 0, ())
    assert bob_seen.here and bob_seen.name == "bob"
    # A socket whose heartbeat stopped (its process died) no longer counts.
    Connection.objects.filter(channel_name="bob-1").update(
        last_seen=timezone.now() - timedelta(seconds=presence.PRESENCE_EXPIRES_SECONDS + 5)
    )
    assert not presence.table(game, 0, ())[0].here
    presence.heartbeats(["bob-1"])
    assert presence.table(game, 0, ())[0].here
    presence.disconnected(game_id=game.pk, channel_name="bob-1")
    assert not presence.table(game, 0, ())[0].here


def test_a_player_who_closed_the_game_has_left_it_rather_than_never_came(alice, bob):
    game = human_game(alice, bob)
    assert "bob has not opened the game yet" in _presence_html(game, alice)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-2")  # a second tab
    presence.disconnected(game_id=game.pk, channel_name="bob-1")
    assert presence.table(game, 0, ())[0].here  # still at the table in the other tab
    presence.disconnected(game_id=game.pk, channel_name="bob-2")
    (bob_seen,) = presence.table(game, 0, ())
    assert not bob_seen.here and bob_seen.arrived and bob_seen.left_ago == "just now"
    assert "bob has left the table (<time" in _presence_html(game, alice)
    assert Connection.objects.filter(game=game).count() == 1  # only the latest closed socket is kept
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-3")  # back again
    assert presence.table(game, 0, ())[0].here and Connection.objects.filter(game=game).count() == 1
    # Away since the socket closed, not since the game began: the claim clock starts there.
    away_for(game, 600)
    presence.disconnected(game_id=game.pk, channel_name="bob-3")
    assert presence.away_seconds(game, 1) < 5


def test_claim_the_win_only_after_the_absence_limit_on_their_turn(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    absent, claimer = (bob, alice) if state.turn == 1 else (alice, bob)
    presence.connected(game_id=game.pk, user=claimer, channel_name="claimer")
    with pytest.raises(services.NotAvailable):
        services.game_claim_win(user=claimer, game_id=game.pk)
    away_for(game, 61)
    outcome = services.game_claim_win(user=claimer, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner_seat == game.seat_of(claimer)
    last = Move.objects.filter(game=game).latest("seq")
    assert last.by_timeout and last.note["kind"] == "abandon"
    assert outcome.game.pk == game.pk


def test_no_claim_while_the_opponent_is_at_the_table(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    absent, claimer = (bob, alice) if state.turn == 1 else (alice, bob)
    presence.connected(game_id=game.pk, user=absent, channel_name="here")
    away_for(game, 600)
    with pytest.raises(services.NotAvailable):
        services.game_claim_win(user=claimer, game_id=game.pk)


def test_no_claim_when_it_is_your_own_turn(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    on_turn = alice if state.turn == 0 else bob
    away_for(game, 600)
    with pytest.raises(services.NotAvailable):
        services.game_claim_win(user=on_turn, game_id=game.pk)


def _was_here(game: Game, user, seconds_ago: int) -> None:
    """``user``'s socket on ``game`` went silent ``seconds_ago``."""
    Connection.objects.create(game=game, user=user, channel_name=f"gone-{user.pk}",
                              last_seen=timezone.now() - timedelta(seconds=seconds_ago))


def _presence_html(game: Game, viewer) -> str:
    return logged_in(viewer).get(reverse("presence", args=[game.pk])).content.decode()


def test_the_presence_fragment_offers_the_claim(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    claimer, absent = (alice, bob) if state.turn == 1 else (bob, alice)
    away_for(game, 120)
    _was_here(game, absent, 120)
    html = _presence_html(game, claimer)
    assert "data-ago>2\xa0minutes ago</time>)" in html and "Claim the win" in html  # timesince's nbsp
    stranger = Client()
    stranger.force_login(make_user("carol"))
    assert stranger.get(reverse("presence", args=[game.pk])).status_code == 403


def test_a_player_gone_under_a_minute_left_just_now(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 600
    game = human_game(alice, bob)
    _to_play(game, {0: alice, 1: bob})
    away_for(game, 20)
    _was_here(game, bob, 300)  # gone long ago; away on this turn for 20 seconds
    html = _presence_html(game, alice)
    assert "data-ago>just now</time>)" in html and "0 minutes" not in html


def test_a_player_who_never_opened_the_game_has_not_left_it(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    claimer, absent = (alice, bob) if state.turn == 1 else (bob, alice)
    away_for(game, 120)
    html = _presence_html(game, claimer)
    assert f"{absent.username} has not opened the game yet." in html and "left the table" not in html
    assert "Claim the win" in html and "has not come?" in html  # absent on their turn all the same


def test_presence_is_pushed_only_to_boards_that_show_it(alice, bob):
    """A board against the computer has no #presence: a push there was an htmx oobErrorNoTarget."""
    from games.play.board.status import render_presence

    people = human_game(alice, bob)
    assert 'id="presence"' in render_presence(people.pk, alice, oob=True)
    computer = services.game_create_vs_computer(user=alice, level="easy", rules=HouseRules(), hints=False)
    assert render_presence(computer.pk, alice, oob=True) is None
    page = Client()
    page.force_login(alice)
    assert 'id="presence"' not in page.get(reverse("game", args=[computer.pk])).content.decode()


def test_heartbeats_of_sockets_opened_together_are_spread_over_the_interval():
    """Pages that reconnect together (a restarted worker) must not beat together for ever: each
    socket's first beat comes at a random point of its first interval, later ones a full interval
    apart, which keeps every live socket fresh (PRESENCE_EXPIRES_SECONDS is three intervals)."""
    firsts = [presence.heartbeat_delay(first=True) for _ in range(400)]
    low, high = (presence.HEARTBEAT_SECONDS * share for share in presence.FIRST_BEAT)
    assert all(low <= t <= high for t in firsts)
    assert max(firsts) - min(firsts) > (high - low) * 0.8  # spread, not bunched
    assert presence.heartbeat_delay(first=False) == presence.HEARTBEAT_SECONDS
    assert high <= presence.HEARTBEAT_SECONDS < presence.PRESENCE_EXPIRES_SECONDS


def test_presence_and_the_claim_follow_every_board_while_someone_is_away(alice, bob, settings):
    """While a player is away the presence line comes with every board (an answer and a push alike):
    it is whose turn it is that decides who may be claimed against, so a line drawn before a move goes
    stale after it."""
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    mover, away = (alice, bob) if state.turn == 0 else (bob, alice)
    _was_here(game, away, 30)
    game.refresh_from_db()
    mine = next(c for c in load(game).hands[state.turn] if c.value + state.count <= 31)
    client = logged_in(mover, headers={"HX-Request": "true"})
    answer = client.post(reverse("act", args=[game.pk]),
                         {"type": "play", "card": str(mine), "version": game.version}).content.decode()
    presence_part = answer.split('<div id="presence"', 1)[1]
    assert presence_part.startswith(' class="presence" hx-swap-oob="morph"')
    # Now it is the absent player's turn: the claim counts down, from when their turn began.
    assert "you may claim the win in <time" in presence_part and "data-countdown>1:00<" in presence_part
    assert 'hx-trigger="load delay:' in presence_part  # and the line is asked for again when it is due
    pushed = render_board_oob(game.pk, mover, "x" * 64)
    assert '<div id="presence" class="presence" hx-swap-oob="morph"' in pushed
    computer = computer_game(alice)  # a game against the computer has nobody to wait for
    assert '<div id="presence"' not in render_board_oob(computer.pk, alice, "x" * 64)


def test_a_present_player_is_looked_at_again_when_their_heartbeat_would_expire(alice, bob):
    game = human_game(alice, bob)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-live")
    html = _presence_html(game, alice)
    assert "bob is at the table" in html
    delay = int(html.split('hx-trigger="load delay:', 1)[1].split("ms", 1)[0])
    expires_ms = presence.PRESENCE_EXPIRES_SECONDS * 1000
    assert expires_ms - 2000 <= delay <= expires_ms + 1000


def test_a_board_carries_no_presence_while_everyone_is_at_the_table(alice, bob):
    """With every player here the lines do not depend on whose turn it is: arrivals and departures
    are pushed on their own, so a board does not carry (and the page does not redraw) them."""
    game = human_game(alice, bob)
    for user in (alice, bob):
        Connection.objects.create(game=game, user=user, channel_name=f"here-{user.pk}",
                                  last_seen=timezone.now())
    client = logged_in(alice, headers={"HX-Request": "true"})
    answer = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="board"' in answer and 'id="presence"' not in answer
    assert 'id="presence"' not in render_board_oob(game.pk, alice, "x" * 64)
    assert "bob is at the table" in _presence_html(game, alice)  # the line itself is still drawn
    Connection.objects.filter(user=bob).update(closed_at=timezone.now())  # bob leaves
    pushed = render_board_oob(game.pk, alice, "x" * 64)
    assert '<div id="presence" class="presence" hx-swap-oob="morph"' in pushed
