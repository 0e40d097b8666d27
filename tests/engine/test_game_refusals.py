"""The state machine's refusals, each a named error that leaves the state as it was: laying away,
playing, a count past 31, unknown actions and seats, new_game's and legal_actions' checks; and the
engine modules' docstring examples."""

from __future__ import annotations

import doctest
import importlib

import pytest

from games.engine.actions import CallMuggins, Count, CutForDeal, Discard, Go, NextDeal
from games.engine.cards import parse_card
from games.engine.errors import CardNotInHand, CountExceeds31, IllegalAction, NotYourTurn, WrongPhase
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from tests.engine.game_support import D, P, deal, discarded, refused, run

# --- refusals -----------------------------------------------------------------------------------


def test_discard_refusals():
    state = deal()
    refused(state, D(1, "KH"), IllegalAction, "exactly two")
    refused(state, D(1, "KH 9C AH"), IllegalAction, "exactly two")
    refused(state, Discard(1, (parse_card("KH"), parse_card("KH"))), IllegalAction, "different")
    refused(state, D(1, "KH TD"), CardNotInHand, "Ten of diamonds")
    refused(state, P(1, "KH"), WrongPhase)
    refused(state, Go(1), WrongPhase)
    refused(state, Count(1, 0), WrongPhase)
    refused(state, CallMuggins(1), WrongPhase)
    state, _ = apply(state, D(1, "3S 4S"))
    refused(state, D(1, "KH 9C"), NotYourTurn, "already")
    assert legal_actions(state, 1) == ()
    assert len(legal_actions(state, 0)) == 15


def test_play_refusals():
    state = discarded()
    refused(state, P(0, "TD"), NotYourTurn)  # pone leads
    refused(state, P(1, "TD"), CardNotInHand)
    refused(state, P(1, "3S"), CardNotInHand)  # laid away
    refused(state, D(1, "KH 9C"), WrongPhase)
    refused(state, NextDeal(1), WrongPhase)
    refused(state, CutForDeal(1, 3), WrongPhase)
    state, _ = run(state, P(1, "KH"), P(0, "TD"), P(1, "9C"), Go(0))
    refused(state, Go(0), NotYourTurn)
    refused(state, P(1, "KH"), CardNotInHand)  # already played
    state, _ = run(state, P(1, "AH"))
    refused(state, P(1, "2C"), NotYourTurn)


def test_count_exceeds_31_refused():
    hands = ("KS QS 9D 8D 4S 5S", "KH QH JC 7C 2H 3H")
    state = discarded(hands=hands, discards=("4S 5S", "2H 3H"), starter="AD")
    state, _ = run(state, P(1, "KH"), P(0, "KS"), P(1, "7C"))
    assert state.count == 27
    refused(state, P(0, "QS"), CountExceeds31, "The count is 27")
    refused(state, P(0, "8D"), CountExceeds31)
    assert legal_actions(state, 0) == (Go(0),)


def test_unknown_action_and_bad_seat():
    state = deal()
    refused(state, object(), IllegalAction)
    refused(state, D(5, "KH 9C"), IllegalAction)


def test_new_game_checks():
    with pytest.raises(ValueError):
        new_game(HouseRules(), b"")
    for bad in (1, 5):
        with pytest.raises(ValueError):
            new_game(HouseRules(), b"x", players=bad)
    assert new_game(HouseRules(), b"x", players=2).players == 2
    assert new_game(HouseRules(), b"x", players=3).rules.players == 3  # tests/engine/test_game_multi_deal.py


@pytest.mark.parametrize("name", ["events", "actions", "state", "game", "view", "testing"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(f"games.engine.{name}"), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_legal_actions_bad_seat():
    with pytest.raises(ValueError):
        legal_actions(deal(), 3)
