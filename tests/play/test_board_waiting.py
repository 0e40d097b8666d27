"""Where every seat acts at once, each board says whom it waits for: a player who laid away or
pressed "Next hand" is told who is still to, and the other is told they are ready. The board also
marks the player's turn (for the tab's title) and gives each action its key."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games.play.models import Game
from tests.play.factories import (
    GO_HANDS,
    act,
    fixed_secrets,
    human_game,
    logged_in,
    play_out,
    stack,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "waiting")


def board(user, game: Game) -> str:
    return logged_in(user).get(reverse("game", args=[game.pk])).content.decode()


def at_the_end_of_the_show(alice, bob) -> Game:
    game = human_game(alice, bob)
    play_out(game, {0: alice, 1: bob}, random.Random(4),
             stop=lambda s: s.phase == "show" and s.turn is None and not any(s.acks))
    return game


def test_after_next_hand_each_board_names_whom_it_waits_for(alice, bob):
    game = at_the_end_of_the_show(alice, bob)
    both = board(alice, game)
    assert 'data-shortcut="n"' in both and "waiting-line" not in both
    act(game, alice, {"type": "next_deal"})
    mine, theirs = board(alice, game), board(bob, game)
    assert "Waiting for bob…" in mine and 'value="next_deal"' not in mine
    assert "alice is ready." in theirs and 'value="next_deal"' in theirs
    assert "data-my-turn" in theirs and "data-my-turn" not in mine


def test_a_player_who_laid_away_is_told_whom_they_wait_for(alice, bob):
    game = stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter="5C")
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    assert "Waiting for alice…" in board(bob, game)


def test_the_lay_away_button_sits_by_the_crib_and_each_card_has_its_key(alice, bob):
    game = stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter="5C")
    page = board(alice, game)
    crib = page[page.index('<div class="crib"'):page.index('<div class="starter"')]
    assert 'form="discard-form"' in crib and "Lay away to the crib" in crib and 'data-shortcut="l"' in crib
    assert 'id="discard-form"' in page
    assert all(f'aria-keyshortcuts="{n}"' in page for n in range(1, 7))
