"""The pone cuts the pack on the board: a button (and the pack) for the cutter, a word for the
dealer, the computer's own cut, a cut made by the clock, and the lobby's house rule."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.play.board_support import assert_board_partial, board_error, post_act, text
from tests.play.factories import (
    GO_HANDS,
    act,
    away_for,
    computer_game,
    fixed_secrets,
    human_game,
    load,
    logged_in,
    stack,
)

pytestmark = pytest.mark.django_db

CUTS = HouseRules(pone_cuts=True)


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "cut")


def laid_away(game: Game, alice, bob) -> Game:
    """alice deals (seat 0), bob is the pone; both lay away."""
    stack(game, dealer=0, hands=GO_HANDS, starter="5C")
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    return game


def test_the_pone_is_asked_to_cut_and_the_dealer_waits(alice, bob):
    game = laid_away(human_game(alice, bob, rules=CUTS), alice, bob)
    assert load(game).phase == "starter"
    pone = text(logged_in(bob).get(reverse("game", args=[game.pk])))
    assert 'value="cut_starter"' in pone and 'aria-label="Cut the pack"' in pone
    assert 'data-shortcut="c"' in pone and "Cut the pack · " in pone  # the tab's title names the phase
    assert 'data-card="5C"' not in pone and "Five of clubs" not in pone  # not turned yet
    dealer = text(logged_in(alice).get(reverse("game", args=[game.pk])))
    assert 'value="cut_starter"' not in dealer
    assert "bob cuts the pack for the starter" in dealer


def test_the_cut_turns_the_starter_and_says_who_cut(alice, bob):
    game = laid_away(human_game(alice, bob, rules=CUTS), alice, bob)
    html = assert_board_partial(post_act(logged_in(bob), game, {"type": "cut_starter"}))
    assert board_error(html) == ""
    assert 'data-card="5C"' in html and "You cut the pack" in html
    assert load(game).phase == "play"
    assert "bob cuts the pack" in text(logged_in(alice).get(reverse("game", args=[game.pk])))


def test_the_dealer_cannot_cut_and_nothing_changes(alice, bob):
    game = laid_away(human_game(alice, bob, rules=CUTS), alice, bob)
    before = load(game)
    response = post_act(logged_in(alice), game, {"type": "cut_starter"})
    assert response.status_code == 409 or 400 <= response.status_code < 500
    assert "right of the dealer cuts" in board_error(text(response))
    assert load(game) == before


def test_a_cut_sent_twice_is_made_once(alice, bob):
    """The second is a page sending again a cut whose answer it lost: the board, not a refusal."""
    game = laid_away(human_game(alice, bob, rules=CUTS), alice, bob)
    game.refresh_from_db()
    version = game.version
    assert post_act(logged_in(bob), game, {"type": "cut_starter"}, version=version).status_code == 200
    again = post_act(logged_in(bob), game, {"type": "cut_starter"}, version=version)
    assert again.status_code == 200
    assert board_error(text(again)) == "" and "You cut the pack" in text(again)
    assert load(game).phase == "play"
    assert [e.kind for e in load(game).log].count("cut_pack") == 1


def test_the_computer_cuts_for_itself(alice):
    game = computer_game(alice, level="expert", rules=CUTS)
    stack(game, dealer=0, hands=GO_HANDS, starter="5C")  # alice deals: the computer is the pone
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    services.play_computer_turns(game.pk, limit=2)  # its lay-away, then its cut
    state = load(game)
    assert state.phase == "play" and str(state.starter) == "5C"
    assert [e.kind for e in state.log].count("cut_pack") == 1


def test_the_clock_cuts_for_a_pone_who_runs_out_of_time(alice, bob):
    game = laid_away(human_game(alice, bob, rules=CUTS), alice, bob)
    Game.objects.filter(pk=game.pk).update(turn_timer=30)
    away_for(game, 31)
    services.game_timeout(user=alice, game_id=game.pk)
    state = load(game)
    assert state.phase == "play"
    assert game.seats.get(user=bob).timeouts == 1


def test_the_lobby_offers_the_rule_on_by_default(alice):
    a = logged_in(alice)
    page = text(a.get(reverse("lobby")))
    box = re.search(r'<input[^>]*name="cpu-pone_cuts"[^>]*>', page).group(0)
    assert "checked" in box
    a.post(reverse("new_computer_game"), {"cpu-level": "easy", "cpu-target": "121", "cpu-skunks": "on",
                                          "cpu-peg_out_zone": "0", "cpu-match_games": "1",
                                          "cpu-pone_cuts": "on"})
    game = Game.objects.get()
    assert game.pone_cuts and game.house_rules.pone_cuts and load(game).rules.pone_cuts


def test_a_table_can_let_the_starter_turn_by_itself(alice):
    a = logged_in(alice)
    a.post(reverse("new_computer_game"), {"cpu-level": "easy", "cpu-target": "121", "cpu-skunks": "on",
                                          "cpu-peg_out_zone": "0", "cpu-match_games": "1"})
    game = Game.objects.get()
    assert not game.pone_cuts and not load(game).rules.pone_cuts
