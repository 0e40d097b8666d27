"""The computer's turns on the service path: it steps only when its seat is due, never in a human
game or a finished one, never starts the next game by itself, plays whole games at each level, and
counts and calls muggins with manual counting."""

from __future__ import annotations

import random

import pytest

from games.engine.actions import AcceptCount, Count, NextGame, action_from_dict
from games.engine.game import legal_actions
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.play import services
from games.play.models import Game, Move, Round
from tests.engine.game_support import GO_DISCARDS, D, parse_moves, run
from tests.engine.game_support import GO_PLAY as ENGINE_PLAY
from tests.play.factories import (
    GO_HANDS,
    GO_STARTER,
    act,
    computer_game,
    human_game,
    load,
    play_out,
    put_state,
    replay,
    snapshot,
)
from tests.play.service_support import (
    _secrets,  # noqa: F401  autouse: games dealt from the "services" secrets
    assert_log_consistent,
)

pytestmark = pytest.mark.django_db


# --- the computer ---------------------------------------------------------------------------------


def test_the_computer_steps_only_when_its_seat_is_due(alice):
    game = computer_game(alice, level="standard")
    assert services.computer_to_act(game)  # both seats cut
    out = services.game_computer_step(game_id=game.pk)
    assert out is not None
    assert Move.objects.get(game=game).seat == 1
    state = load(game)
    assert state.to_act == (0,) and state.cut_positions[1] is not None
    assert not services.computer_to_act(game)
    before = snapshot(game)
    assert services.game_computer_step(game_id=game.pk) is None
    services.play_computer_turns(game.pk)
    assert snapshot(game) == before
    # The person cuts; the deal may start with the computer to discard (or a re-cut).
    taken = state.cut_positions[1]
    act(game, alice, {"type": "cut_for_deal", "position": 0 if taken else 1})
    services.play_computer_turns(game.pk)
    state = load(game)
    assert state.to_act == (0,)  # only the person is left to act
    assert not services.computer_to_act(game)
    assert all(m.seat in (0, 1) for m in Move.objects.filter(game=game))
    assert_log_consistent(game)


def test_the_computer_does_not_move_in_a_human_game(alice, bob):
    game = human_game(alice, bob)
    assert not services.computer_to_act(game)
    assert services.game_computer_step(game_id=game.pk) is None
    assert not Move.objects.filter(game=game).exists()


def test_the_computer_never_starts_the_next_game_by_itself(alice):
    game = computer_game(alice, level="expert", rules=HouseRules(match_games=3))
    # Finish game 1 of the match in the engine (stacked), the person winning it.
    state = start_deal(game.house_rules, dealer=0, hands=GO_HANDS, starter=GO_STARTER, scores=(118, 100),
                       secret=bytes.fromhex(game.secret))
    state, _ = run(state, *(D(s, c) for s, c in enumerate(GO_DISCARDS)), *parse_moves(ENGINE_PLAY))
    assert state.phase == "game_over"
    put_state(game, state)
    assert not services.computer_to_act(game)
    before = snapshot(game)
    assert services.game_computer_step(game_id=game.pk) is None
    services.play_computer_turns(game.pk)
    assert snapshot(game) == before
    # The person starts it; then the computer has its discard to make.
    act(game, alice, {"type": "next_game"})
    state = load(game)
    assert state.phase == "discard" and state.game_no == 1 and state.dealer == 1
    assert services.computer_to_act(game)
    services.play_computer_turns(game.pk)
    assert load(game).to_act == (0,)
    assert Move.objects.filter(game=game).order_by("seq").last().seat == 1
    assert NextGame(0) == action_from_dict(Move.objects.get(game=game, seq=1).action)


def test_no_computer_step_in_a_finished_game(alice):
    game = computer_game(alice)
    act(game, alice, {"type": "resign"})
    game.refresh_from_db()
    assert not services.computer_to_act(game)
    assert services.game_computer_step(game_id=game.pk) is None


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "standard", "expert"])
def test_a_whole_game_against_each_computer_level(alice, level):
    game = computer_game(alice, level=level)
    final = play_out(game, {0: alice}, random.Random(f"whole-{level}"))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert final.phase == "match_over"
    assert game.winner_seat in (0, 1) and game.winner_seat == final.match_winner
    scores = game.result["scores"]
    assert max(scores) >= 121 and scores[game.winner_seat] == max(scores)
    assert game.result["games"][0]["reason"] == "target"
    assert_log_consistent(game)
    assert replay(game).to_dict() == game.state
    seats = Move.objects.filter(game=game).values_list("seat", flat=True)
    assert set(seats) == {0, 1}
    assert Round.objects.filter(game=game).count() == final.deal_no + 1


def test_manual_counting_against_the_computer(alice):
    """The computer counts its own hands and calls muggins when the person under-counts."""
    rules = HouseRules(target=61, manual_counting=True, muggins=True)
    game = computer_game(alice, level="standard", rules=rules)

    def undercount(state, seat, rng):
        legal = legal_actions(state, seat)
        counts = [a for a in legal if isinstance(a, Count)]
        if counts:
            return counts[0]  # always claim 0
        accepts = [a for a in legal if isinstance(a, AcceptCount)]
        return accepts[0] if accepts else rng.choice(legal)

    play_out(game, {0: alice}, random.Random(11), choose=undercount)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    muggins = [m for m in Move.objects.filter(game=game, seat=1) if m.action["type"] == "call_muggins"]
    assert muggins, "the computer never called muggins on a zero count"
    assert replay(game).to_dict() == game.state
