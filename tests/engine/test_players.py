"""The computer players' entry point: levels, phases, determinism, the hint, and a strength smoke test."""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from games.engine.actions import AcceptCount, CallMuggins, Count, CutForDeal, Discard, NextDeal, NextGame
from games.engine.cards import parse_cards
from games.engine.game import apply, legal_actions, new_game
from games.engine.players import LEVELS, choose_action, discard_table
from games.engine.players.choose import REFERENCE
from games.engine.players.discard_chances import discard_chances
from games.engine.players.endgame import in_endgame
from games.engine.rules import HouseRules
from games.engine.testing import start_deal, with_scores
from games.engine.view import view

MODULES = ["players", "players.ranks", "players.discard", "players.play_search", "players.throw_model",
           "players.endgame", "players.choose", "players.play_end_chances", "players.kept_four_pegging"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"games.engine.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_unknown_level_and_nothing_to_do() -> None:
    state = new_game(HouseRules(), b"levels")
    with pytest.raises(ValueError, match="unknown level"):
        choose_action(view(state, 0), "grandmaster", random.Random(0))
    state, _ = apply(state, CutForDeal(0, 5))
    with pytest.raises(ValueError, match="nothing to do"):
        choose_action(view(state, 0), "easy", random.Random(0))  # seat 0 has cut: waits for seat 1


@pytest.mark.parametrize("level", LEVELS)
def test_cut_is_a_legal_random_position(level: str) -> None:
    state = new_game(HouseRules(), b"cut")
    picks = {choose_action(view(state, 1), level, random.Random(seed)).position for seed in range(20)}
    assert len(picks) > 5  # random, not always the same card
    action = choose_action(view(state, 1), level, random.Random(1))
    assert isinstance(action, CutForDeal) and action in legal_actions(state, 1)


def test_the_expert_lays_away_by_chances_and_the_reference_by_the_hint_table() -> None:
    # Flush-rich cards (two suits plus fives and jacks) so suits matter in many of the tables.
    rng = random.Random(21)
    pool = list(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH "
                            "5D 5C JC JD"))
    for deal_no in range(40):
        cards = rng.sample(pool, 13)
        state = start_deal(HouseRules(), dealer=deal_no % 2, hands=(cards[:6], cards[6:12]),
                           starter=cards[12])
        state = with_scores(state, (rng.randrange(121), rng.randrange(121)))
        for seat in (0, 1):
            v = view(state, seat)
            dealer = v.dealer == seat
            action = choose_action(v, "expert", rng)
            assert isinstance(action, Discard)
            best = discard_chances(v.hand, dealer, v.scores[seat], v.scores[1 - seat], pegging=True)[0]
            assert set(action.cards) == set(best.option.laid_away)
            if not in_endgame(*v.scores, 121):
                reference = choose_action(v, REFERENCE, rng)
                assert set(reference.cards) == set(discard_table(v.hand, is_dealer=dealer)[0].laid_away)


def test_the_reference_level_is_offered_to_no_player() -> None:
    assert REFERENCE not in LEVELS


def test_standard_keeps_the_best_hand() -> None:
    state = start_deal(HouseRules(), dealer=0, hands=("5H 5C 5S JD 2C 9H", "AS 2S 3S 4S 6S 7S"), starter="KD")
    action = choose_action(view(state, 1), "standard", random.Random(0))
    assert set(action.cards) <= set(parse_cards("2S 7S 6S AS 3S 4S"))
    # The dealer keeps 5-5-5-J (worth 14 before the starter) and lays away 2C 9H.
    action = choose_action(view(state, 0), "standard", random.Random(0))
    assert set(action.cards) == set(parse_cards("2C 9H"))


def _to_show(rules: HouseRules, state=None):
    state = state or start_deal(rules, dealer=0, hands=("TD 5D 6D 7D 8S 9S", "KH 9C AH 2C 3S 4S"),
                                starter="5C")
    state, _ = apply(state, Discard(0, parse_cards("8S 9S")))
    state, _ = apply(state, Discard(1, parse_cards("3S 4S")))
    rng = random.Random(0)
    while state.phase == "play":
        state, _ = apply(state, choose_action(view(state, state.turn), "standard", rng))
    return state


def test_manual_count_is_true_and_muggins_is_called_on_an_undercount() -> None:
    rules = HouseRules(manual_counting=True, muggins=True)
    state = _to_show(rules)
    assert state.phase == "show" and state.turn == 1  # pone counts first
    true_pone = state.show[-1].score.total
    action = choose_action(view(state, 1), "expert", random.Random(0))
    assert action == Count(1, true_pone)
    state, _ = apply(state, action)
    # The dealer accepts a true count ...
    assert choose_action(view(state, 0), "easy", random.Random(0)) == AcceptCount(0)
    state, _ = apply(state, AcceptCount(0))
    # The dealer (a person, say) counts 2 short: the computer at seat 1 calls muggins.
    dealer_true = state.show[-1].score.total
    state, _ = apply(state, Count(0, dealer_true - 2))
    assert choose_action(view(state, 1), "standard", random.Random(0)) == CallMuggins(1)


def test_acknowledges_the_show_and_starts_the_next_game() -> None:
    state = _to_show(HouseRules())
    assert state.phase == "show"
    assert choose_action(view(state, 0), "expert", random.Random(0)) == NextDeal(0)
    # A match: after a game the computer asks for the next one.
    rng = random.Random(4)
    state = new_game(HouseRules(match_games=3, target=61), b"match")
    while state.phase not in ("game_over", "match_over"):
        seat = state.to_act[0]
        state, _ = apply(state, choose_action(view(state, seat), "easy", rng))
    assert state.phase == "game_over"
    assert choose_action(view(state, 0), "expert", rng) == NextGame(0)


def _match(first: str, second: str, index: int) -> bool:
    """One seeded game; True when ``first`` wins. Who deals first alternates with ``index``."""
    rng = random.Random(f"smoke:{index}")
    state = new_game(HouseRules(), f"smoke:{index}".encode())
    while state.phase == "cut":
        for seat in state.to_act:
            state, _ = apply(state, choose_action(view(state, seat), "easy", rng))
    me = state.dealer if index % 2 == 0 else 1 - state.dealer
    levels = {me: first, 1 - me: second}
    while state.phase not in ("game_over", "match_over"):
        seat = state.to_act[0]
        state, _ = apply(state, choose_action(view(state, seat), levels[seat], rng))
    return state.results[-1].winner == me


def test_expert_beats_easy_in_a_clear_majority() -> None:
    # Seeded, so the outcome is fixed: 30 games, the expert must win at least 24 (bench/ai.py
    # measures the real rate over thousands of games: about 99%).
    wins = sum(_match("expert", "easy", i) for i in range(30))
    assert wins >= 24
