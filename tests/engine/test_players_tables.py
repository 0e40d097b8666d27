"""The expert at tables of three and four: it weighs the card it gives the crib."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import parse_cards
from games.engine.players import choose_action
from games.engine.players.crib_card import VALUES, estimate
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.engine.view import view

THREE = ["9S 8S 8H QS 5D", "KS TD 3S AD 4D", "TH QH AC 5S QD"]
FOUR = ["9S AD 5C 4S AH", "AS 3S JD 3H 5D", "TH KH 4D 9C KS", "5H QD 7H 8D 3C"]


def _laid(hands, dealer: int, level: str, **deal) -> str:
    state = start_deal(HouseRules(players=len(hands)), dealer=dealer, hands=hands, **deal)
    return str(choose_action(view(state, 0), level, random.Random(1)).cards[0])


def test_the_crib_card_table_is_the_estimate_it_says_it_is():
    assert {rank: round(value, 2) for rank, value in estimate().items()} == VALUES
    assert max(VALUES, key=VALUES.get) == 5 and min(VALUES, key=VALUES.get) == 13
    assert VALUES[11] > VALUES[10]  # his nobs


def test_a_dealer_of_three_gives_a_five_to_its_own_crib_where_the_standard_keeps_it():
    deal = {"starter": "3H", "crib_card": "AH"}
    assert _laid(THREE, 0, "standard", **deal) == "9S"
    assert _laid(THREE, 0, "expert", **deal) == "5D"
    # Not dealing, the expert keeps the five away from another player's crib.
    assert _laid(THREE, 1, "expert", **deal) != "5D"


@pytest.mark.parametrize(("dealer", "gives_five"), [(0, True), (2, True), (1, False), (3, False)])
def test_at_four_a_partners_crib_is_ones_own(dealer: int, gives_five: bool):
    assert _laid(FOUR, dealer, "standard", starter="QS") == "4S"
    assert (_laid(FOUR, dealer, "expert", starter="QS") == "5C") is gives_five


def test_the_expert_lays_away_one_of_its_own_cards_at_every_seat():
    for dealer in range(3):
        laid = _laid(THREE, dealer, "expert", starter="3H", crib_card="AH")
        assert parse_cards(laid)[0] in parse_cards(THREE[0])
