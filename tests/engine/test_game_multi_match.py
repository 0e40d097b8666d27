"""Three-player and four-player (partners) cribbage, from a game's end: the first to count out wins,
skunks judged per loser (triple or none), the lowest loser or the losing partnership deals the next
game of a match, resigning, and the deal passing left over many deals.

Scenarios run from the stacked deals of ``tests/engine/game_support.py`` (RULES.md "Three and four
players").
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine.actions import CutForDeal, Discard, NextDeal, NextGame, Resign
from games.engine.errors import IllegalAction, NotYourTurn
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.state import GameResult, GameState
from games.engine.testing import deal_with_deck, stacked_deck, with_scores
from tests.engine.game_support import (
    HANDS3,
    HANDS4,
    PLAY4,
    deal3,
    deal4,
    lay_away_last,
    parse_moves,
    refused,
    run,
)

# --- winning, skunks, match play, resigning -----------------------------------------------------


def _heels(state: GameState, scores) -> tuple[GameState, list]:
    """Redo the fresh deal so the starter is a jack (his heels) and set the scores."""
    n = state.players
    size = 6 if n == 2 else 5
    hands = [" ".join(f"{r}{s}" for r in "23456789"[:size]) for s in "SHDC"[:n]]
    crib = "KC" if n == 3 else None
    state = deal_with_deck(state, stacked_deck(state.dealer, hands, "JD", n, crib))
    state = with_scores(state, scores)
    return run(state, *(Discard(s, state.hands[s][:1]) for s in range(n)))


@pytest.mark.parametrize(("scores", "skunks", "value"), [
    ((119, 95, 91), (0, 0, 0), 1),
    ((119, 95, 90), (0, 0, 1), 2),
    ((119, 60, 90), (0, 2, 1), 4),
    ((119, 61, 61), (0, 1, 1), 2),
])
def test_three_player_skunks_are_judged_per_loser(scores, skunks, value):
    state, events = _heels(deal3(dealer=0), scores)
    result = state.results[-1]
    assert result.winner == 0 and result.scores == (121, *scores[1:])
    assert result.skunks == skunks and result.skunk == max(skunks) and result.value == value
    assert result.loser_score == min(scores[1:])
    assert (events[-1].seat, events[-1].scores, events[-1].skunks) == (0, result.scores, skunks)
    assert GameResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_three_player_triple_and_no_skunks():
    state, _ = _heels(deal3(HouseRules(players=3, triple_skunk=True), dealer=0), (119, 30, 100))
    assert state.results[-1].skunks == (0, 3, 0) and state.results[-1].value == 8
    state, _ = _heels(deal3(HouseRules(players=3, skunks=False), dealer=0), (119, 30, 100))
    assert state.results[-1].skunks == (0, 0, 0) and state.results[-1].value == 1


def test_results_stored_before_skunks_were_listed_still_load():
    old = {"game_no": 0, "winner": 1, "scores": [80, 121], "loser_score": 80, "skunk": 1, "value": 2,
           "reason": "target"}
    assert GameResult.from_dict(old).skunks == (1, 0)


def test_three_player_match_lowest_loser_deals_next():
    state = deal3(HouseRules(players=3, match_games=3), dealer=0)
    state, _ = _heels(state, (119, 95, 100))
    assert state.phase == "game_over" and state.match_scores == (1, 0, 0)
    assert state.to_act == (0, 1, 2)
    state, events = apply(state, NextGame(2))
    assert state.dealer == 1 and (events[0].kind, events[0].seat, events[0].detail) == ("dealer", 1, "lost")
    assert state.scores == (0, 0, 0) and state.game_no == 1 and [len(h) for h in state.hands] == [5, 5, 5]
    state, events = _heels(state, (100, 119, 100))  # seat 1 deals and wins; a tie for lowest
    assert state.match_scores == (1, 1, 0)
    state, _ = apply(state, NextGame(0))
    assert state.dealer == 2  # the first clockwise from the last dealer among the lowest


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_player_match_losing_partnership_deals_next(dealer):
    state = deal4(HouseRules(players=4, match_games=3), dealer=dealer)
    scores = (119, 100) if dealer % 2 == 0 else (100, 119)
    state, _ = _heels(state, scores)  # the dealer's side wins
    winner = dealer % 2
    assert state.results[-1].winner == winner and state.match_scores[winner] == 1
    state, events = apply(state, NextGame(0))
    # The losing side's first seat clockwise from the last dealer: here the seat on its left.
    assert state.dealer == (dealer + 1) % 4 and events[0].seat == state.dealer


def test_four_player_next_game_after_a_pegged_win():
    state = lay_away_last(deal4(HouseRules(players=4, match_games=3, skunks=False), scores=(110, 0)), HANDS4)
    state, _ = run(state, *parse_moves(PLAY4[:11]))  # side 0 wins while seat 3 deals
    assert state.phase == "game_over" and state.match_scores == (1, 0)
    state, events = apply(state, NextGame(2))
    assert state.dealer == 1  # seat 3 dealt; side 1 lost: seat 3's partner, next clockwise
    assert (events[0].kind, events[0].seat, events[0].detail) == ("dealer", 1, "lost")


def test_four_player_resign_gives_the_match_to_the_other_partnership():
    state = lay_away_last(deal4(scores=(50, 40)), HANDS4)
    state, events = apply(state, Resign(2))
    assert state.match_winner == 1 and state.results[-1].winner == 1 and state.results[-1].reason == "resign"
    won = events[-1]
    assert (won.kind, won.seat, won.scores, won.detail) == ("game_won", 1, (50, 40), "resign")
    refused(state, Resign(1), IllegalAction)


@pytest.mark.parametrize(("scores", "resigner", "winner"), [
    ((10, 20, 30), 0, 2),
    ((10, 20, 20), 0, 1),
    ((10, 20, 20), 1, 2),
    ((30, 20, 30), 1, 2),
])
def test_three_player_resign_best_placed_other_wins(scores, resigner, winner):
    state = lay_away_last(deal3(scores=scores), HANDS3)
    state, _ = apply(state, Resign(resigner))
    assert state.match_winner == winner and state.results[-1].skunks == (0, 0, 0)


# --- the next deal: the deal passes left --------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_dealer_rotation_and_counting_order_over_many_deals(players):
    rng = random.Random(players)
    state = new_game(HouseRules(players=players), b"rotation")
    while state.phase == "cut":
        taken = set()
        for seat in range(players):
            pos = rng.choice([p for p in range(52) if p not in taken])
            taken.add(pos)
            state, _ = apply(state, CutForDeal(seat, pos))
    dealers = []
    while state.phase not in ("match_over", "game_over"):
        if state.phase == "show" and state.turn is None:
            dealer = state.dealer
            dealers.append(dealer)
            assert [(e.seat, e.kind) for e in state.show] == [
                ((dealer + k) % players, "hand") for k in range(1, players + 1)] + [(dealer, "crib")]
            assert state.to_act == tuple(range(players))
            state, events = apply(state, NextDeal(dealer))
            assert events == () and state.acks[dealer]
            refused(state, NextDeal(dealer), NotYourTurn, "waiting for the other players")
            for seat in range(players):
                if seat != dealer:
                    state, _ = apply(state, NextDeal(seat))
            assert state.dealer == (dealer + 1) % players and state.phase == "discard"
            assert state.deal_no == len(dealers)
            continue
        if state.phase == "play" and not state.plays:
            assert state.turn == (state.dealer + 1) % players
        seat = rng.choice(state.to_act)
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    assert len(dealers) >= 4
    assert all(b == (a + 1) % players for a, b in zip(dealers, dealers[1:], strict=False))
