"""The board after a manual count: the player is told what their claim earned, at tables of 2, 3 and 4.

In ``GO_HANDS``/``GO_PLAY`` (dealer alice, seat 0) bob's hand is worth 4 and each pegs 1 in the play.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.engine.game_support import (
    HANDS3,
    HANDS4,
    PLAY3,
    PLAY4,
    deal3,
    deal4,
    lay_away_last,
    parse_moves,
    played,
    run,
)
from tests.play.factories import (
    GO_HANDS,
    GO_PLAY,
    act,
    computer_game,
    fixed_secrets,
    human_game,
    load,
    logged_in,
    put_state,
    stack,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
MUGGINS = HouseRules(manual_counting=True, muggins=True)


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "count")


def words(html: str) -> str:
    """The board as a player reads it: tags dropped, entities decoded, spaces folded."""
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", html)))


def board(client: Client, game: Game) -> str:
    return words(client.get(reverse("game", args=[game.pk]), headers=HTMX).content.decode())


def count(client: Client, game: Game, points: int) -> str:
    game.refresh_from_db()
    response = client.post(reverse("act", args=[game.pk]), {"version": game.version, "type": "count",
                                                           "points": str(points)}, headers=HTMX)
    assert response.status_code == 200, response.content[:300]
    return words(response.content.decode())


def at_the_show(alice, bob, rules: HouseRules, scores=None) -> Game:
    game = stack(human_game(alice, bob, rules=rules), dealer=0, hands=GO_HANDS, starter="5C", scores=scores)
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    for seat, action in GO_PLAY:
        act(game, (alice, bob)[seat], action)
    assert load(game).show[-1].status == "due"
    return game


def test_the_count_form_says_there_is_one_count(alice, bob):
    game = at_the_show(alice, bob, MUGGINS)
    mine = board(logged_in(bob), game)
    assert "One count only. Too many and you peg what it is worth, your opponent the excess" in mine
    plain = at_the_show(alice, bob, HouseRules(manual_counting=True))
    assert "too few and the rest is lost." in board(logged_in(bob), plain)


def test_over_claim_with_muggins_tells_both_players(alice, bob):
    game = at_the_show(alice, bob, MUGGINS)
    answer = count(logged_in(bob), game, 9)
    assert "Worth 4, counted 9: too many, 4 pegged; 5 to the opponent as the penalty" in answer
    assert "Counted 9 for the hand: too many, the true count is pegged" in answer
    assert load(game).scores == (1 + 5, 1 + 4)
    theirs = board(logged_in(alice), game)
    assert "Worth 4, counted 9: too many, 4 pegged; 5 to the opponent as the penalty" in theirs
    assert "Penalty for the over-count: 5" in theirs
    assert 'value="call_muggins"' not in theirs  # nothing was missed: nothing to answer
    assert "What is your hand worth?" in theirs  # alice counts her own hand at once


def test_over_claim_without_muggins_pegs_the_worth_only(alice, bob):
    game = at_the_show(alice, bob, HouseRules(manual_counting=True))
    answer = count(logged_in(bob), game, 9)
    assert "Worth 4, counted 9: too many, 4 pegged" in answer and "penalty" not in answer.lower()
    assert load(game).scores == (1, 5)


def test_under_claim_without_muggins_says_the_rest_is_lost(alice, bob):
    game = at_the_show(alice, bob, HouseRules(manual_counting=True))
    answer = count(logged_in(bob), game, 3)
    assert "Worth 4, counted 3: the rest is lost" in answer


def test_a_penalty_that_takes_the_opponent_out_ends_the_game(alice, bob):
    game = at_the_show(alice, bob, MUGGINS, scores=(117, 50))  # alice 118 after the play
    answer = count(logged_in(bob), game, 9)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert load(game).scores == (123, 55)
    assert "Penalty for the over-count: 5" in answer
    assert "alice wins 121–55 (double skunk)" in answer  # a result reads at the target
    assert "Game over" in answer


def _table(alice, players: int) -> Game:
    return services.game_create_table(
        user=alice, rules=HouseRules(players=players, manual_counting=True, muggins=True),
        seats=[{"kind": "computer", "level": "standard"}] * (players - 1),
    )


@pytest.mark.parametrize(("players", "claim", "worth", "taker"), [(3, 13, 10, 1), (4, None, None, 1)])
def test_over_claim_at_tables_of_three_and_four(alice, players, claim, worth, taker):
    game = _table(alice, players)
    secret = bytes.fromhex(game.secret)
    if players == 3:
        state = run(lay_away_last(deal3(game.house_rules, secret=secret), HANDS3), *parse_moves(PLAY3))[0]
    else:
        state = run(lay_away_last(deal4(game.house_rules, secret=secret), HANDS4), *parse_moves(PLAY4))[0]
        worth = state.show[-1].score.total
        claim = worth + 3
    put_state(game, state)
    assert state.turn == 0 and state.show[-1].status == "due"
    before = state.scores
    answer = count(logged_in(alice), game, claim)
    excess = claim - worth
    assert f"Worth {worth}, counted {claim}: too many, {worth} pegged; {excess} to the opponent" in answer
    after = load(game)
    sides = len(after.scores)
    assert after.scores[0] >= before[0] + worth
    assert after.scores[taker % sides] >= before[taker % sides] + excess
    assert after.show[0].muggins == excess and after.show[0].awarded == worth


def test_against_the_computer_the_rule_works_both_ways(alice):
    """The computer counts its own hand truly; it pegs the penalty for the person's over-count and
    calls muggins on their under-count."""
    game = computer_game(alice, level="standard", rules=MUGGINS)
    game.refresh_from_db()
    state, _ = played(game.house_rules, secret=bytes.fromhex(game.secret))
    put_state(game, state)  # alice (seat 0) deals: the computer's hand (worth 4) is counted first
    services.play_computer_turns(game.pk)
    state = load(game)
    assert state.show[0].claimed == 4 and state.show[0].status == "muggins" and state.turn == 0
    act(game, alice, {"type": "accept_count"})
    act(game, alice, {"type": "count", "points": "20"})  # her hand is worth 16
    state = load(game)
    assert state.show[1].awarded == 16 and state.show[1].muggins == 4 and state.scores == (1 + 16, 5 + 4)
    act(game, alice, {"type": "count", "points": "2"})  # her crib is worth 5
    services.play_computer_turns(game.pk)
    state = load(game)
    assert state.show[2].muggins == 3 and state.scores == (17 + 2, 9 + 3) and state.turn is None
