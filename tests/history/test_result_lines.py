"""A result line reads the same, and naturally, on the board, the replay and the record: the winner's
score first, and after a resignation by a player who was ahead, who led ("alice wins by resignation
(bob led 28–25)", not "alice wins 25–28"). The logged events are data; the words are the reader's."""

from __future__ import annotations

import html
import random

import pytest
from django.urls import reverse

from games.engine.rules import HouseRules
from games.history.replay import final_state
from games.play import services
from games.play.models import Game, Move
from games.play.narration import Seating, log_lines, result_line
from tests.play.factories import act, logged_in, play_out

pytestmark = pytest.mark.django_db


def _event(seat, kind, **data) -> dict:
    return {"seat": seat, "kind": kind, "points": 0, "cards": [], **data}


@pytest.mark.parametrize(
    ("scores", "winner", "reason", "expected"),
    [
        ([121, 98], 0, "target", "wins 121–98"),
        ([98, 121], 1, "target", "wins 121–98"),
        ([25, 28], 0, "resign", "wins by resignation (bob led 28–25)"),
        ([60, 40], 0, "resign", "wins by resignation (alice led 60–40)"),
        ([40, 40], 1, "resign", "wins by resignation (level at 40–40)"),
        ([30, 50, 20], 0, "resign", "wins by resignation (bob led 50–30–20)"),
    ],
)
def test_result_line(scores, winner, reason, expected) -> None:
    names = ("alice", "bob", "carol")[: len(scores)]
    said = result_line(Seating(names), winner, scores, reason)
    assert (said.who, said.words) == (names[winner], expected)


def test_the_logged_win_after_a_resignation_is_reworded_for_each_viewer() -> None:
    events = [_event(1, "resign"), _event(0, "game_won", scores=[25, 28], skunks=[0, 0], detail="resign"),
              _event(0, "match_won", scores=[1, 0])]
    lines = log_lines(Seating(("You", "bob"), 0), events)
    assert [line.text for line in lines][:2] == ["bob resigns", "You win by resignation (bob led 28–25)"]
    theirs = log_lines(Seating(("alice", "You"), 1), events)
    assert theirs[1].text == "alice wins by resignation (you led 28–25)"
    played = [_event(0, "game_won", scores=[121, 85], skunks=[0, 1], detail="target")]
    assert log_lines(Seating(("alice", "bob")), played)[0].text == "alice wins 121–85 (skunk)"


def test_partners_read_as_partners() -> None:
    events = [_event(3, "resign"), _event(0, "game_won", scores=[30, 45], skunks=[0, 0], detail="resign")]
    lines = log_lines(Seating(("You", "bob", "carol", "dave"), 0), events)
    assert lines[1].text == "You & carol win by resignation (bob & dave led 45–30)"


def _resigned_while_ahead(alice, bob) -> Game:
    """Alice and Bob play until Bob leads; then Bob resigns."""
    game = services.game_create_between(players=[alice, bob], rules=HouseRules())
    state = play_out(game, {0: alice, 1: bob}, random.Random(4),
                     stop=lambda s: s.scores[1] > s.scores[0] + 2 and s.phase != "cut")
    act(game, bob, {"type": "resign"})
    game.refresh_from_db()
    assert game.winner_seat == 0 and state.scores[1] > state.scores[0]
    return game


def test_board_replay_and_record_agree_on_a_resignation_by_the_leader(alice, bob) -> None:
    game = _resigned_while_ahead(alice, bob)
    a, b = game.result["scores"]
    final_state(game)  # the Move log still replays, its events unchanged

    board = html.unescape(logged_in(alice).get(reverse("game", args=[game.pk])).content.decode())
    result = board.split('<section class="result"', 1)[1].split("</section>", 1)[0]
    assert f"You win by resignation (bob led {b}–{a})" in result
    assert f"You win by resignation (bob led {b}–{a})" in board  # the log's line
    assert f"wins {a}-{b}" not in board and f"wins {a}–{b}" not in board

    steps = Move.objects.filter(game=game).count()
    replay = logged_in(alice).get(reverse("game_replay", args=[game.pk]) + f"?step={steps}")
    replay = html.unescape(replay.content.decode())
    assert f"alice wins by resignation (bob led {b}–{a})." in replay
    assert f"{a}–{b}" not in replay.split('class="replay-results"', 1)[1].split("</section>", 1)[0]

    record = html.unescape(logged_in(alice).get(reverse("game_record", args=[game.pk])).content.decode())
    # The final score is beside it: who led is not said twice.
    said = f'alice</strong> won by resignation; final score <span data-testid="final-score">alice {a} – bob'
    assert said in record
    assert "Online, casual" in record
