"""The calls over a board that shows a result: a repeated line said once, and what the result says
read out but not drawn again beside it."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games.play.board.player import board_context, folded, said_by_the_result
from games.play.narration import LogLine
from tests.play.factories import claimed_win

pytestmark = pytest.mark.django_db


def call(text: str, who: str = "", kind: str = "resign") -> LogLine:
    return LogLine(who, text, 0, kind, (), False)


def test_a_repeated_call_is_said_once():
    go = "say_go"
    lines = [call("bob resigns"), call("bob resigns"), call("Go", "bob", go), call("Go", "You", go)]
    assert [(ln.who, ln.text) for ln in folded(lines)] == [("", "bob resigns"), ("bob", "Go"), ("You", "Go")]


def test_the_results_words_are_not_drawn_twice():
    lines = [call("Result entered by the director"), call("alice wins", kind="game_won"),
             call("Fifteen for 2")]
    result = {"headline": "alice wins (entered by the director)", "note": "Result entered by the director"}
    assert said_by_the_result(lines, result) == {"Result entered by the director", "alice wins"}
    assert said_by_the_result(lines, None) == frozenset()


@override_settings(ABSENCE_CLAIM_SECONDS=60)
def test_after_a_claimed_win_the_board_draws_no_call_over_its_result(alice, bob):
    game, _absent, claimer = claimed_win(alice, bob)
    game.refresh_from_db()
    context = board_context(game, claimer)
    assert context["result"] and context["calls"]
    assert len({(ln.who, ln.text) for ln in context["calls"]}) == len(context["calls"])
    assert any(ln.kind == "game_won" for ln in context["calls"])  # the live region still reads it out
    won = next(ln for ln in context["calls"] if ln.kind == "game_won")
    assert won.text in context["quiet_calls"]
