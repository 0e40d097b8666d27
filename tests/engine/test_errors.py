"""Data that is no action is refused by type: a bad card is a ``BadCard``, any other unreadable
action a ``MalformedAction``, both ``ValueError``s, neither an ``IllegalAction`` (a move the
state refuses)."""

from __future__ import annotations

import pytest

from games.engine.actions import action_from_dict
from games.engine.cards import Card, parse_card
from games.engine.errors import BadCard, IllegalAction, MalformedAction


@pytest.mark.parametrize("token", ["ZZ", "1H", "5X", "", "10"])
def test_a_bad_card_is_a_bad_card(token: str) -> None:
    with pytest.raises(BadCard):
        parse_card(token)


def test_a_card_built_out_of_range_is_a_bad_card() -> None:
    with pytest.raises(BadCard):
        Card(14, "S")


@pytest.mark.parametrize(
    "data",
    [{"type": "play", "seat": 0, "card": "QQ"}, {"type": "discard", "seat": 0, "cards": ["8S", "ZZ"]}],
)
def test_an_action_with_a_bad_card_says_so(data: dict) -> None:
    with pytest.raises(BadCard):
        action_from_dict(data)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "teleport", "seat": 0},
        {},
        {"type": "play", "seat": 0},
        {"type": "cut_for_deal", "seat": 0, "position": "top"},
        {"type": "count", "seat": "north", "points": 3},
    ],
)
def test_other_unreadable_actions_are_malformed_not_bad_cards(data: dict) -> None:
    with pytest.raises(MalformedAction) as caught:
        action_from_dict(data)
    assert not isinstance(caught.value, BadCard)
    assert isinstance(caught.value, ValueError) and not isinstance(caught.value, IllegalAction)
