"""The pone cuts the pack for the starter (house rule ``pone_cuts``), and the last deal's show."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine.actions import CutStarter, NextDeal, NextGame, action_from_dict, action_to_dict
from games.engine.errors import NotYourTurn, WrongPhase
from games.engine.game import legal_actions
from games.engine.players import choose_action
from games.engine.rules import HouseRules
from games.engine.state import GameState
from games.engine.view import public_view, view
from tests.engine.game_support import (
    GO_DISCARDS,
    GO_PLAY,
    HANDS3,
    HANDS4,
    D,
    deal,
    deal3,
    deal4,
    kinds,
    lay_away_last,
    parse_moves,
    refused,
    run,
)

CUTS = HouseRules(pone_cuts=True)


def laid_away(rules: HouseRules = CUTS, **kw) -> GameState:
    state = deal(rules, **kw)
    state, _ = run(state, *(D(s, cards) for s, cards in enumerate(GO_DISCARDS)))
    return state


def test_the_starter_waits_for_the_pones_cut():
    state = laid_away()
    assert state.phase == "starter" and state.starter is None
    assert state.turn == 1 == state.cutter and state.to_act == (1,)
    assert legal_actions(state, 1) == (CutStarter(1),) and legal_actions(state, 0) == ()


def test_the_cut_turns_the_same_starter_the_deck_held():
    state, events = run(laid_away(), CutStarter(1))
    assert kinds(events) == ["cut_pack", "starter"]
    assert events[0].seat == 1
    assert state.phase == "play" and state.turn == 1 and str(state.starter) == "5C"
    assert state.starter == laid_away(HouseRules()).starter


def test_without_the_rule_the_starter_turns_as_the_crib_is_laid_away():
    state = laid_away(HouseRules())
    assert state.phase == "play" and str(state.starter) == "5C"
    assert "cut_pack" not in kinds(state.log)


def test_his_heels_follows_the_cut():
    state = laid_away(starter="JH")
    assert state.scores == (0, 0)
    state, events = run(state, CutStarter(1))
    assert kinds(events) == ["cut_pack", "starter", "his_heels"]
    assert state.scores == (2, 0) and state.phase == "play"


def test_his_heels_off_the_cut_can_win_the_game():
    state, events = run(laid_away(starter="JH", scores=(119, 100)), CutStarter(1))
    assert kinds(events)[-2:] == ["his_heels", "game_won"]
    assert state.phase == "match_over" and state.scores == (121, 100)


def test_the_dealer_cannot_cut_for_the_pone():
    refused(laid_away(), CutStarter(0), NotYourTurn, "right of the dealer cuts")


def test_no_card_is_played_before_the_cut():
    state = laid_away()
    refused(state, parse_moves(["1 KH"])[0], WrongPhase)
    refused(state, D(1, "KH 9C"), WrongPhase)


def test_a_cut_at_any_other_time_is_refused():
    refused(deal(CUTS), CutStarter(1), WrongPhase, "no pack to cut")
    state, _ = run(laid_away(), CutStarter(1))
    refused(state, CutStarter(1), WrongPhase)


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_with_three_players_the_seat_right_of_the_dealer_cuts(dealer):
    state = lay_away_last(deal3(HouseRules(players=3, pone_cuts=True), dealer=dealer), HANDS3)
    assert state.phase == "starter" and state.turn == (dealer - 1) % 3
    assert all(legal_actions(state, s) == () for s in range(3) if s != state.turn)


def test_with_four_players_the_seat_right_of_the_dealer_cuts():
    state = lay_away_last(deal4(HouseRules(players=4, pone_cuts=True), dealer=2), HANDS4)
    assert state.phase == "starter" and state.turn == 1
    state, events = run(state, CutStarter(1))
    assert state.phase == "play" and state.turn == 3  # the dealer's left leads


def test_the_starter_phase_survives_a_round_trip_and_hides_the_starter():
    state = laid_away()
    assert GameState.from_dict(state.to_dict()) == state
    for seat in (0, 1):
        v = view(state, seat)
        assert v.starter is None and v.turn == 1 and "5C" not in str(v.to_dict())
    assert public_view(state).turn == 1


def test_the_action_reads_back_from_the_log():
    assert action_to_dict(CutStarter(1)) == {"type": "cut_starter", "seat": 1}
    assert action_from_dict({"type": "cut_starter", "seat": 1}) == CutStarter(1)


@pytest.mark.parametrize("level", ["easy", "standard", "expert"])
def test_the_computer_cuts_when_it_is_the_pone(level):
    state = laid_away()
    assert choose_action(view(state, 1), level, random.Random(1)) == CutStarter(1)


# --- the last deal's show ---------------------------------------------------------------------


def shown_deal() -> GameState:
    state, _ = run(laid_away(HouseRules()), *parse_moves(GO_PLAY))
    assert state.phase == "show"
    return state


def test_the_last_show_is_kept_through_the_next_deal():
    show = shown_deal()
    state, _ = run(show, NextDeal(0), NextDeal(1))
    assert state.phase == "discard" and state.last_show == show.show
    v = view(state, 0)
    shown = [(h.seat, h.kind, h.total) for h in v.last_show]
    assert shown == [(1, "hand", 4), (0, "hand", 16), (0, "crib", 5)]
    assert GameState.from_dict(state.to_dict()) == state


def test_the_first_deal_has_no_last_show():
    assert deal().last_show == () and view(deal(), 0).last_show == ()


def test_a_new_game_starts_without_the_last_show():
    state = laid_away(HouseRules(match_games=3), starter="JH", scores=(119, 100))
    state = replace(state, last_show=shown_deal().show)
    assert state.phase == "game_over"
    state, _ = run(state, NextGame(1))
    assert state.last_show == ()


def test_an_old_state_without_a_last_show_still_loads():
    data = shown_deal().to_dict()
    del data["last_show"]
    assert GameState.from_dict(data).last_show == ()
