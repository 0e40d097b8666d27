"""Cards and notation (RULES.md, "Cards")."""

from __future__ import annotations

import pytest

from games.engine.cards import DECK, Card, format_cards, full_deck, parse_card, parse_cards


def test_every_card_round_trips_through_notation() -> None:
    for card in full_deck():
        assert parse_card(str(card)) == card


def test_deck_has_52_distinct_cards_in_index_order() -> None:
    assert len(DECK) == len(set(DECK)) == 52
    assert [card.index for card in DECK] == list(range(52))
    assert str(DECK[0]) == "AS" and str(DECK[51]) == "KC"


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [("AS", 1, "S"), ("5H", 5, "H"), ("TD", 10, "D"), ("10D", 10, "D"), ("jc", 11, "C"), (" KH ", 13, "H")],
)
def test_parse_card(token: str, rank: int, suit: str) -> None:
    assert parse_card(token) == Card(rank, suit)


@pytest.mark.parametrize("token", ["5X", "1H", "ZZ", "", "5", "5HH", "11S", "0D"])
def test_bad_token_raises_value_error_naming_it(token: str) -> None:
    with pytest.raises(ValueError, match=repr(token).replace("\\", "\\\\")):
        parse_card(token)


def test_bad_token_inside_a_list_is_named() -> None:
    with pytest.raises(ValueError, match="'QX'"):
        parse_cards("5H QX 6D")


def test_parse_and_format_many() -> None:
    cards = parse_cards("5H, 5C 5S JD")
    assert format_cards(cards) == "5H 5C 5S JD"
    assert parse_cards(["AS", "KC"]) == (Card(1, "S"), Card(13, "C"))


@pytest.mark.parametrize(
    ("token", "value", "name"),
    [
        ("AS", 1, "Ace of spades"),
        ("5H", 5, "Five of hearts"),
        ("TD", 10, "Ten of diamonds"),
        ("JC", 10, "Jack of clubs"),
        ("QH", 10, "Queen of hearts"),
        ("KS", 10, "King of spades"),
    ],
)
def test_values_and_names(token: str, value: int, name: str) -> None:
    card = parse_card(token)
    assert card.value == value
    assert card.name == name


def test_ace_is_low_in_rank_order() -> None:
    assert parse_card("AS").rank < parse_card("2S").rank < parse_card("KS").rank


def test_card_rejects_impossible_values() -> None:
    with pytest.raises(ValueError):
        Card(0, "S")
    with pytest.raises(ValueError):
        Card(14, "S")
    with pytest.raises(ValueError):
        Card(5, "X")


def test_cards_in_running_text_are_written_as_players_write_them():
    from games.play.templatetags.cribbage import card_short, cards_text

    assert card_short("TH") == "10\u2665\ufe0e" and card_short("AS") == "A\u2660\ufe0e"
    html = str(cards_text("TH 5C"))
    assert html.count("card-text--red") == 1 and html.count("card-text--black") == 1
    assert 'title="Ten of hearts"' in html and "10\u2665" in html and "TH" not in html
    assert str(cards_text([])) == ""
