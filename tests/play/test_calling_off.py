"""Calling a game off: either player may before the first card (a rated game only before the deal),
never a stranger; the view sends htmx to the lobby, and the other player is told on their board."""

from __future__ import annotations

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from games.play import broadcast, services
from games.play.board.player import render_board_oob
from games.play.models import Game
from tests.play.factories import act, as_form, human_game, load, logged_in, make_user, random_action
from tests.play.online_support import (
    HTMX,
    _beats_on_the_rows,  # noqa: F401  autouse: the socket rows are the beats
    _clear_cache,  # noqa: F401  autouse: an empty cache
    _to_play,
)

pytestmark = pytest.mark.django_db


def _cut(game, alice, bob):
    act(game, alice, {"type": "cut_for_deal", "position": 3})
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    return load(game)


# --- abort --------------------------------------------------------------------------------------


def test_either_player_may_abort_before_the_first_card(alice, bob):
    game = human_game(alice, bob)
    _cut(game, alice, bob)
    services.game_abort(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.winner_seat is None


def test_no_abort_once_a_card_is_played(alice, bob):
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    seat = state.turn
    act(game, {0: alice, 1: bob}[seat], as_form(random_action(state, seat, __import__("random").Random(1))))
    with pytest.raises(services.NotAvailable, match="no longer abort"):
        services.game_abort(user=alice, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_stranger_cannot_abort(alice, bob):
    game = human_game(alice, bob)
    with pytest.raises(services.NotAPlayer):
        services.game_abort(user=make_user("carol"), game_id=game.pk)


def test_abort_view_sends_htmx_to_the_lobby(alice, bob):
    game = human_game(alice, bob)
    c = Client()
    c.force_login(alice)
    response = c.post(reverse("abort", args=[game.pk]), headers=HTMX)
    assert response.status_code == 204 and response["HX-Redirect"] == reverse("lobby")
    assert "Game called off: it does not count." in c.get(reverse("lobby")).content.decode()


def test_a_rated_game_can_be_called_off_before_the_deal_only(alice, bob):
    game = human_game(alice, bob, rated=True)
    act(game, alice, {"type": "cut_for_deal", "position": 3})  # bob has not cut: no cards are dealt
    assert services.abort_refusal(Game.objects.get(pk=game.pk), load(game)) == ""
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    game.refresh_from_db()
    board = logged_in(bob).get(reverse("game", args=[game.pk])).content.decode()
    assert reverse("abort", args=[game.pk]) not in board  # bob has seen his hand
    with pytest.raises(services.NotAvailable, match="only before the deal; you can resign"):
        services.game_abort(user=bob, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    casual = human_game(alice, bob)
    _cut(casual, alice, bob)
    services.game_abort(user=bob, game_id=casual.pk)  # a casual game: until the first card


def test_the_other_player_is_told_the_game_was_called_off(alice, bob, monkeypatch):
    game = human_game(alice, bob)
    _cut(game, alice, bob)
    pushed = []
    monkeypatch.setattr(broadcast, "game_changed", lambda game_id, version, **kw: pushed.append(version))
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.game_abort(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert pushed == [game.version]  # alice's open page is redrawn
    for html in (render_board_oob(game.pk, alice, "x" * 64),
                 logged_in(alice).get(reverse("game", args=[game.pk])).content.decode()):
        assert "bob called this game off" in html and "nobody won" in html
        assert 'name="cards"' not in html and reverse("act", args=[game.pk]) not in html  # nothing to play
        assert reverse("lobby") in html
    page = logged_in(bob).get(reverse("game", args=[game.pk])).content.decode()
    assert "You called this game off" in page and "<title>Called off · You v alice" in page
    refused = logged_in(alice).post(reverse("act", args=[game.pk]), {"version": game.version, "type": "go"},
                                    headers=HTMX)
    assert refused.status_code == 409 and "not in progress" in refused.content.decode()
