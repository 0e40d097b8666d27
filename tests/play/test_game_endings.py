"""How a game the site ended reads on the board: a forfeit on time, a claimed win, a timeout's trace,
and who was skunked at a table of three. The engine only logs a resignation for the first two; the
board says what happened, to each viewer in their own person."""

from __future__ import annotations

import html
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string

from games.engine.state import GameResult
from games.play import services
from games.play.board.player import render_board
from games.play.board.table import result_summary
from games.play.models import Game
from games.play.narration import Seating
from tests.play.factories import (
    act,
    as_form,
    away_for,
    claimed_win,
    forfeit_on_time,
    load,
    random_action,
    timed_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


def _board(game, user) -> str:
    game.refresh_from_db()
    return html.unescape(render_board(game, user, oob=True))  # with the latest move's calls


def test_a_third_timeout_reads_as_a_forfeit_on_time_for_each_viewer(alice, bob):
    game = forfeit_on_time(alice, bob)
    assert game.status == Game.Status.FINISHED and game.result["ending"]["how"] == "time"
    bobs, alices = _board(game, bob), _board(game, alice)
    assert "You ran out of time (timeout 3 of 3) and the game is forfeit" in bobs
    assert "You lose on time" in bobs and "alice wins on time (3 timeouts)" in bobs
    assert "You win on time (3 timeouts)" in alices and "bob loses on time" in alices
    for page in (bobs, alices):
        assert "resign" not in page.replace("log-resign", "").lower() and "forfeits" not in page


def test_each_timeout_is_in_the_deal_log_and_the_strikes_show(alice, bob):
    game = timed_game(alice, bob)
    act(game, alice, {"type": "cut_for_deal", "position": 3})
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    if load(game).phase != "discard":
        pytest.skip("equal cuts: cut again")
    away_for(game, 31)
    services.game_timeout(user=alice, game_id=game.pk)  # both lay away at once: both ran out
    alices = _board(game, alice)
    assert "You ran out of time: the site laid away for you (timeout 1 of 3)" in alices
    assert "bob ran out of time: the site laid away for bob (timeout 1 of 3)" in alices
    assert "them" not in alices
    assert "timeouts: You 1 of 3, bob 1 of 3" in alices
    # Still in the log after the next move, not only in the passing call.
    state = load(game)
    seat = state.turn
    act(game, [alice, bob][seat], as_form(random_action(state, seat, __import__("random").Random(1))))
    assert "the site laid away for you (timeout 1 of 3)" in _board(game, alice)


def test_a_claimed_win_reads_as_a_claim_for_each_viewer(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game, absent, claimer = claimed_win(alice, bob)
    mine, theirs = _board(game, claimer), _board(game, absent)
    name, gone = claimer.username, absent.username
    assert f"You claim the win: {gone} was away for 5 minutes" in mine
    assert "You win by claim (opponent absent)" in mine and f"{gone} loses by claim" in mine
    assert f"{name} claims the win: you were away for 5 minutes" in theirs
    assert f"{name} wins by claim (opponent absent)" in theirs and "You lose by claim" in theirs
    for page in (mine, theirs):
        assert "resign" not in page.replace("log-resign", "").lower()


def test_a_table_of_three_says_who_was_skunked():
    r = GameResult(0, 0, (125, 101, 80), 80, 1, 2, "target", (0, 0, 1))
    rules = SimpleNamespace(match_games=1, skunks=True, skunk_line=91)
    v = SimpleNamespace(result=r, match_winner=0, phase="match_over", rules=rules, match_scores=(1, 0, 0),
                        target=121, side_of=lambda seat: seat)
    names = ("Computer 1 (standard)", "You", "Computer 2 (standard)")
    result = result_summary(v, Seating(names, 1))
    # In the game hole, and the narration's own words for who was skunked.
    assert result["headline"] == "Computer 1 (standard) wins 121–101–80 (Computer 2 (standard) skunked)"
    text = render_to_string("play/parts/result.jinja", {
        "result": result, "v": v, "game": SimpleNamespace(pk=1, notice=""), "actions": True,
        "csrf_input": ""})
    assert "Computer 2 (standard) is skunked." in text and "That is a skunk" not in text
    pair = GameResult(0, 0, (121, 80), 80, 1, 2, "target", (0, 1))
    two_v = SimpleNamespace(**{**v.__dict__, "result": pair, "match_scores": (1, 0)})
    two = result_summary(two_v, Seating(("alice", "You"), 1))
    assert two["skunked"] == ""  # two players: "That is a skunk." says it
