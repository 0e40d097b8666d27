"""The game hole is the last hole everywhere in a game's record: a winner whose last count went past
the target stands at it in the result, in each deal's row and in the text download, as on the
board."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.engine.rules import HouseRules
from games.history.export import game_text
from tests.play.factories import logged_in

from .helpers import finish_between

pytestmark = pytest.mark.django_db


def _past_the_hole(alice, bob, target: int):
    """A game played out whose winner counted past ``target`` (seeds tried in order)."""
    for seed in range(1, 40):
        game = finish_between(alice, bob, seed=seed, rules=HouseRules(target=target))
        if max(game.result["scores"]) > target:
            return game
    raise AssertionError("no game went past the hole")


@pytest.mark.parametrize("target", [121, 61])
def test_the_record_never_shows_a_score_past_the_game_hole(alice, bob, target: int) -> None:
    game = _past_the_hole(alice, bob, target)
    page = html.unescape(logged_in(alice).get(reverse("game_record", args=[game.pk])).content.decode())
    rows = re.findall(r"(\d+) → <strong>(\d+)</strong>", page)
    assert rows, "the deal rows show each score before and after"
    assert max(int(n) for row in rows for n in row) == target
    assert "took them to" not in page
    final = page.split('data-testid="final-score">', 1)[1].split("<", 1)[0]
    assert str(target) in final
    assert not [n for n in re.findall(r"\d+", final) if int(n) > target]
    text = game_text(game)
    scores = [int(n) for line in text.splitlines() if line.startswith("Score: ")
              for n in re.findall(r"\b(\d+)\b", line)]
    assert max(scores) == target
