"""The previous deal's show stays one click away on the board until the next show."""

from __future__ import annotations

import html as html_lib
import random
import re

import pytest
from django.urls import reverse

from games.engine.rules import HouseRules
from tests.play.factories import (
    GO_HANDS,
    GO_PLAY,
    act,
    computer_game,
    fixed_secrets,
    human_game,
    load,
    logged_in,
    play_out,
    stack,
)

pytestmark = pytest.mark.django_db

FOLD = re.compile(r'<details class="last-deal" id="([^"]+)" data-keep-open data-morph-key="\1">'
                  r"\s*<summary>(.*?)</summary>", re.S)


def board(client, game) -> str:
    return html_lib.unescape(client.get(reverse("game", args=[game.pk])).content.decode())


def test_the_last_show_is_folded_beside_the_next_deal(alice, bob):
    game = stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter="5C")
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    for seat, action in GO_PLAY:
        act(game, (alice, bob)[seat], action)
    a = logged_in(alice)
    assert load(game).phase == "show" and not FOLD.search(board(a, game))  # the show is on the table
    act(game, alice, {"type": "next_deal"})
    act(game, bob, {"type": "next_deal"})
    html = board(a, game)
    fold_id, summary = FOLD.search(html).groups()
    assert fold_id == "last-deal-0-1"
    assert " ".join(summary.split()) == "Last deal: bob's hand 4 · Your hand 16 · Your crib 5"
    fold = html[html.index('class="last-deal"'):html.index("</details>")]
    assert "Ten of diamonds" in fold and "Five of clubs" in fold  # alice's hand, the old starter
    theirs = " ".join(board(logged_in(bob), game).split())
    assert "Last deal: Your hand 4 · alice's hand 16 · alice's crib 5" in theirs


def test_the_first_deal_has_no_fold(alice, bob):
    game = stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter="5C")
    assert "last-deal" not in board(logged_in(alice), game)


@pytest.mark.parametrize("seed", [1, 10])  # with these shuffles and moves the game is won in the play
def test_a_game_won_in_the_play_keeps_the_last_deals_fold(alice, monkeypatch, seed):
    """The winning deal had no show, so the last one counted is still the one to look back on."""
    fixed_secrets(monkeypatch, "won-in-play")
    game = computer_game(alice, rules=HouseRules(target=61))
    play_out(game, {0: alice}, random.Random(seed))
    state = load(game)
    assert state.phase == "match_over" and not state.show and state.last_show
    html = board(logged_in(alice), game)
    fold_id, summary = FOLD.search(html).groups()
    assert fold_id == f"last-deal-{state.game_no}-{state.deal_no}"
    assert summary.startswith("Last deal: ")
