"""The show (RULES.md, "The show"). Every expected figure below was worked out by hand; the
reasoning for the less obvious ones sits in the comment on the row."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engine.cards import DECK, Card, parse_card, parse_cards
from games.engine.scoring import SHOW_KINDS, ScoreGroup, hand_total, score_hand

H, C = False, True  # hand or crib

# hand, starter, crib, total, (number of fifteens, pair points, run points, flush points, nobs points)
CASES = [
    # The maximum: J+5 four ways, 5-5-5 four ways (8 fifteens), double pair royal 12, nobs.
    ("5H 5C 5S JD", "5D", H, 29, (8, 12, 0, 0, 1)),
    ("5C 5S 5D JH", "5H", H, 29, (8, 12, 0, 0, 1)),
    ("5H 5C 5S JD", "5D", C, 29, (8, 12, 0, 0, 1)),
    # 28: the same cards without the matching jack.
    ("5H 5C 5D JD", "5S", H, 28, (8, 12, 0, 0, 0)),
    ("5H 5C 5S 5D", "JS", H, 28, (8, 12, 0, 0, 0)),  # a jack starter is never nobs
    ("5H 5C 5S 5D", "KH", H, 28, (8, 12, 0, 0, 0)),
    ("5H 5C 5S 5D", "TS", C, 28, (8, 12, 0, 0, 0)),
    ("5H 5C 5S 5D", "QC", H, 28, (8, 12, 0, 0, 0)),
    # Four fives without a ten-card: only the four 5-5-5 fifteens (A+5+5 = 11, A+5+5+5 = 16).
    ("5H 5C 5S 5D", "AS", H, 20, (4, 12, 0, 0, 0)),
    # The published 24s. 4-4-5-5-6: 4+5+6 four ways, two pairs, four runs of three.
    ("4H 4S 5D 5C", "6H", H, 24, (4, 4, 12, 0, 0)),
    ("4H 4S 5D 6C", "6H", H, 24, (4, 4, 12, 0, 0)),  # 4-4-5-6-6: 4+5+6 four ways
    ("4H 5S 5D 6C", "6H", H, 24, (4, 4, 12, 0, 0)),  # 4-5-5-6-6
    ("6H 7S 7D 8C", "8H", H, 24, (4, 4, 12, 0, 0)),  # 7+8 four ways; 6 makes no fifteen
    ("7H 7S 8D 8C", "9H", H, 24, (4, 4, 12, 0, 0)),  # 7+8 four ways
    ("AH 7S 7D 7C", "7H", H, 24, (6, 12, 0, 0, 0)),  # A+7+7: C(4,2) = 6 ways
    ("3H 3S 3D 3C", "9H", H, 24, (6, 12, 0, 0, 0)),  # 3+3+9: 6 ways
    ("3H 6S 6D 6C", "6H", H, 24, (6, 12, 0, 0, 0)),  # 3+6+6: 6 ways
    ("4H 4S 4D 4C", "7H", H, 24, (6, 12, 0, 0, 0)),  # 4+4+7: 6 ways
    # Double-double run that is NOT 24: 3+3+4+5 two ways only, so 4 + 4 + 12 = 20.
    ("3H 3S 4D 4C", "5H", H, 20, (2, 4, 12, 0, 0)),
    ("3H 3S 4H 4C", "5H", C, 20, (2, 4, 12, 0, 0)),
    ("6H 6S 7D 7C", "8H", H, 20, (2, 4, 12, 0, 0)),  # 7+8 two ways; 6-6-7-7-8
    # 21 (seed 001): 7+8 three ways, pair royal, three runs 7-8-9.
    ("7H 7S 7D 8C", "9H", H, 21, (3, 6, 9, 0, 0)),
    ("3H 3S 3D 4C", "5H", H, 21, (3, 6, 9, 0, 0)),  # triple run; 3+3+4+5 three ways
    ("4H 5S 6D 6C", "6H", H, 21, (3, 6, 9, 0, 0)),  # triple run; 4+5+6 three ways
    # Double runs.
    ("3H 3S 4D 5C", "9H", H, 12, (2, 2, 6, 0, 0)),  # 3+3+9 and 3+3+4+5
    ("3H 3S 4D 5C", "6H", H, 14, (2, 2, 8, 0, 0)),  # RULES: 3-3-4-5-6 = two runs of four; 4+5+6, 3+3+4+5
    ("7H 8S 8D 9C", "9H", H, 20, (2, 4, 12, 0, 0)),  # 7-8-8-9-9: 7+8 twice, double-double
    ("4H 6S 5D JH", "5S", H, 16, (4, 2, 6, 0, 0)),  # 5+J twice, 4+5+6 twice
    ("4H 6S 5D JH", "5H", H, 17, (4, 2, 6, 0, 1)),  # same ranks, the jack now matches
    # Runs at the low end: ace is low.
    ("AH 2S 3D 8C", "TH", H, 5, (1, 0, 3, 0, 0)),  # only 2+3+10
    ("AH 2S 3D 4C", "5H", H, 7, (1, 0, 5, 0, 0)),  # A+2+3+4+5 = 15; run of five
    ("AS 2S 3S 4S", "5S", C, 12, (1, 0, 5, 5, 0)),
    # No run round the corner: Q-K-A is not a run, J-Q-K-A is only J-Q-K.
    ("QH KS AD 6C", "9H", H, 2, (1, 0, 0, 0, 0)),  # 6+9
    ("QH KS AD 4C", "8H", H, 4, (2, 0, 0, 0, 0)),  # Q+A+4, K+A+4
    ("JH QS KD AC", "5D", H, 9, (3, 0, 3, 0, 0)),  # 5 with each face card; JH vs D: no nobs
    # Face-card runs and ten-cards that are not pairs.
    ("JH QS KD 5C", "5H", H, 18, (6, 2, 3, 0, 1)),  # 5+face: 2 fives x 3 faces
    ("TH JS QD 4C", "AH", H, 9, (3, 0, 3, 0, 0)),  # 10+4+A three ways; T-J-Q
    ("TH KS 2D 3C", "9H", H, 4, (2, 0, 0, 0, 0)),  # T and K are not a pair; 10+2+3 twice
    ("5H 5S TD JC", "QH", H, 17, (6, 2, 3, 0, 0)),
    ("5H 5S TD JC", "QC", H, 18, (6, 2, 3, 0, 1)),
    ("5H 5S JD QC", "KH", H, 17, (6, 2, 3, 0, 0)),
    ("TH JS QD KC", "5H", H, 12, (4, 0, 4, 0, 0)),
    ("5H TS JS QS", "KS", H, 13, (4, 0, 4, 0, 1)),  # not a flush (5H); JS matches the starter
    ("AH 4S TD TC", "KH", H, 8, (3, 2, 0, 0, 0)),  # A+4+ten three ways; T-T pair
    # Flushes.
    ("2H 4H 6H 8H", "KS", H, 4, (0, 0, 0, 4, 0)),  # all even values: no fifteen can exist
    ("2H 4H 6H 8H", "KH", H, 5, (0, 0, 0, 5, 0)),
    ("2H 4H 6H 8H", "KS", C, 0, (0, 0, 0, 0, 0)),  # crib: four of a suit is nothing
    ("2H 4H 6H 8H", "KH", C, 5, (0, 0, 0, 5, 0)),
    ("2H 3H 4H 5H", "6H", H, 14, (2, 0, 5, 5, 0)),  # 4+5+6, 2+3+4+6
    ("2H 3H 4H 5H", "6H", C, 14, (2, 0, 5, 5, 0)),
    ("2H 3H 4H 5H", "6S", H, 13, (2, 0, 5, 4, 0)),
    ("2H 3H 4H 5H", "6S", C, 9, (2, 0, 5, 0, 0)),
    ("6H 7S 8D 9C", "TH", H, 9, (2, 0, 5, 0, 0)),  # 6+9, 7+8
    ("6H 7H 8H 9H", "TH", H, 14, (2, 0, 5, 5, 0)),
    ("6H 7H 8H 9H", "TH", C, 14, (2, 0, 5, 5, 0)),
    ("6H 7H 8H 9S", "TH", C, 9, (2, 0, 5, 0, 0)),  # three hearts in the crib: no flush
    ("TH JH QH KH", "5H", H, 18, (4, 0, 4, 5, 1)),
    ("TH JH QH KH", "5H", C, 18, (4, 0, 4, 5, 1)),
    ("TH JH QH KH", "5S", H, 16, (4, 0, 4, 4, 0)),
    ("TH JH QH KH", "5S", C, 12, (4, 0, 4, 0, 0)),
    ("TH JS QH KH", "5H", C, 12, (4, 0, 4, 0, 0)),  # JS: neither flush nor nobs
    ("7C 8C 9C TC", "JC", H, 12, (1, 0, 5, 5, 0)),  # a jack starter is not nobs
    ("3C 5C 9C KC", "7D", C, 4, (2, 0, 0, 0, 0)),  # 5+K, 3+5+7
    ("3C 5C 9C KC", "7D", H, 8, (2, 0, 0, 4, 0)),
    ("3C 5C 9C KC", "7C", H, 9, (2, 0, 0, 5, 0)),
    ("3C 5C 9C KC", "7C", C, 9, (2, 0, 0, 5, 0)),
    ("2H 6S 7D 7C", "8H", H, 16, (4, 2, 6, 0, 0)),  # 7+8 twice, 2+6+7 twice
    ("2H 6H 7H 8H", "7S", H, 20, (4, 2, 6, 4, 0)),  # the best hand with a 2, as a flush
    ("2H 2S 2D 2C", "9H", H, 20, (4, 12, 0, 0, 0)),  # 2+2+2+9 four ways
    ("3H 4H 5H 6H", "6S", C, 16, (3, 2, 8, 0, 0)),  # 4+5+6 twice, 3+6+6
    ("3H 4H 5H 6H", "6S", H, 20, (3, 2, 8, 4, 0)),
    # Nobs.
    ("JH 2S 4D 6C", "8H", H, 1, (0, 0, 0, 0, 1)),  # all even values: nothing but nobs
    ("JH 2S 4D 6C", "8H", C, 1, (0, 0, 0, 0, 1)),
    ("2H 4S 6D JC", "8C", C, 1, (0, 0, 0, 0, 1)),
    ("JH 2H 4H 6H", "8H", C, 6, (0, 0, 0, 5, 1)),
    ("JH 2S 4D 6C", "JS", H, 2, (0, 2, 0, 0, 0)),  # JH does not match a JS starter
    ("2H 4S 6D 8C", "JH", H, 0, (0, 0, 0, 0, 0)),  # jack starter: no nobs
    # Zero hands ("nineteen").
    ("2H 4S 6D 8C", "KH", H, 0, (0, 0, 0, 0, 0)),  # even values only; no run
    ("AH 3S 9D JC", "KH", H, 0, (0, 0, 0, 0, 0)),  # no subset makes 15; 9-J-K no run
    ("AH 3S 9D JC", "KC", H, 1, (0, 0, 0, 0, 1)),
    # Pairs and fifteens.
    ("AH AS AD AC", "KH", H, 12, (0, 12, 0, 0, 0)),  # K + four aces = 14
    ("3H 3S 3D 3C", "AH", H, 12, (0, 12, 0, 0, 0)),  # everything = 13
    ("AH AS AD 4C", "TH", H, 12, (3, 6, 0, 0, 0)),  # 10+4+A three ways
    ("7H 7S 8D 8C", "AH", H, 14, (5, 4, 0, 0, 0)),  # 7+8 four ways, A+7+7
    ("9H 6S 3D 3C", "3H", H, 16, (5, 6, 0, 0, 0)),  # 9+6, 9+3+3 three ways, 6+3+3+3
    ("9H 9S 6D 6C", "3H", H, 14, (5, 4, 0, 0, 0)),  # 9+6 four ways, 6+6+3
    ("5H 5S 5D TC", "QH", H, 20, (7, 6, 0, 0, 0)),  # 5+ten six ways, 5+5+5
    ("3H 4S 5D 6C", "7H", H, 9, (2, 0, 5, 0, 0)),  # 3+5+7, 4+5+6
]


def _ids() -> list[str]:
    return [f"{hand}+{starter}{'-crib' if crib else ''}" for hand, starter, crib, *_ in CASES]


def test_table_is_big_and_self_consistent() -> None:
    assert len(CASES) >= 60
    for hand, starter, crib, total, (fifteens, pairs, runs, flush, nobs) in CASES:
        assert total == 2 * fifteens + pairs + runs + flush + nobs, (hand, starter, crib)


@pytest.mark.parametrize(("hand", "starter", "crib", "total", "parts"), CASES, ids=_ids())
def test_show_score(hand: str, starter: str, crib: bool, total: int, parts: tuple[int, ...]) -> None:
    cards, up = parse_cards(hand), parse_card(starter)
    score = score_hand(cards, up, crib=crib)
    fifteens, pairs, runs, flush, nobs = parts
    assert score.total == total
    assert hand_total(cards, up, crib) == total
    assert len(score.fifteens) == fifteens
    expected = {"fifteen": 2 * fifteens, "pair": pairs, "run": runs, "flush": flush, "nobs": nobs}
    assert score.by_kind == expected
    assert sum(group.points for group in score.groups) == total


def test_the_29_breakdown() -> None:
    score = score_hand(parse_cards("5H 5C 5S JD"), parse_card("5D"))
    assert all(sum(c.value for c in g.cards) == 15 and g.points == 2 for g in score.fifteens)
    assert len({g.cards for g in score.fifteens}) == 8
    (pair,) = score.pairs
    assert pair == ScoreGroup("pair", parse_cards("5H 5C 5S 5D"), 12, "Double pair royal for 12")
    assert score.runs == () and score.flush is None
    assert score.nobs == ScoreGroup("nobs", (parse_card("JD"),), 1, "His nobs for 1")
    assert [g.kind for g in score.groups] == ["fifteen"] * 8 + ["pair", "nobs"]


def test_double_double_run_lists_each_run() -> None:
    score = score_hand(parse_cards("4H 4S 5D 5C"), parse_card("6H"))
    assert [g.text for g in score.runs] == ["Run of 3 for 3"] * 4
    assert {tuple(str(c) for c in g.cards) for g in score.runs} == {
        ("4H", "5D", "6H"), ("4H", "5C", "6H"), ("4S", "5D", "6H"), ("4S", "5C", "6H"),
    }
    assert [g.text for g in score.pairs] == ["Pair for 2", "Pair for 2"]


def test_double_run_of_four() -> None:
    score = score_hand(parse_cards("3H 3S 4D 5C"), parse_card("6H"))
    assert [len(g.cards) for g in score.runs] == [4, 4]
    assert [[c.rank for c in g.cards] for g in score.runs] == [[3, 4, 5, 6], [3, 4, 5, 6]]


def test_flush_groups() -> None:
    hand = score_hand(parse_cards("2H 4H 6H 8H"), parse_card("KS"))
    assert hand.flush == ScoreGroup("flush", parse_cards("2H 4H 6H 8H"), 4, "Flush for 4")
    five = score_hand(parse_cards("2H 4H 6H 8H"), parse_card("KH"), crib=True)
    assert five.flush == ScoreGroup("flush", parse_cards("2H 4H 6H 8H KH"), 5, "Flush for 5")


def test_pair_texts() -> None:
    score = score_hand(parse_cards("7H 7S 7D 8C"), parse_card("9H"))
    assert [g.text for g in score.pairs] == ["Pair royal for 6"]
    assert score.fifteens[0].text == "Fifteen for 2"
    assert score.runs[0].text == "Run of 3 for 3"


def test_by_kind_always_has_every_kind() -> None:
    score = score_hand(parse_cards("2H 4S 6D 8C"), parse_card("KH"))
    assert score.by_kind == dict.fromkeys(SHOW_KINDS, 0)
    assert score.groups == ()


def test_score_is_immutable() -> None:
    score = score_hand(parse_cards("2H 4S 6D 8C"), parse_card("KH"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.total = 5  # type: ignore[misc]


def test_card_order_does_not_matter() -> None:
    rng = random.Random(7)
    for _ in range(200):
        cards = rng.sample(DECK, 5)
        hand, starter = cards[:4], cards[4]
        for crib in (False, True):
            expected = score_hand(hand, starter, crib).total
            rng.shuffle(hand)
            assert score_hand(hand, starter, crib).total == expected


@pytest.mark.parametrize(
    ("hand", "starter"),
    [
        ("5H 5C 5S", "5D"),  # three cards
        ("5H 5C 5S JD AH", "5D"),  # five cards
        ("5H 5H 5S JD", "5D"),  # a card twice
        ("5H 5C 5S JD", "JD"),  # the starter in the hand
    ],
)
def test_bad_hands_raise_value_error(hand: str, starter: str) -> None:
    with pytest.raises(ValueError):
        score_hand(parse_cards(hand), parse_card(starter))


def test_non_cards_raise_value_error() -> None:
    with pytest.raises(ValueError, match="not a card"):
        score_hand(["5H", "5C", "5S", "JD"], parse_card("5D"))  # type: ignore[list-item]
    with pytest.raises(ValueError, match="not a card"):
        score_hand(parse_cards("5H 5C 5S JD"), "5D")  # type: ignore[arg-type]


def test_fast_path_agrees_with_breakdown_on_random_hands() -> None:
    rng = random.Random(2024)
    for _ in range(3000):
        cards: list[Card] = rng.sample(DECK, 5)
        crib = rng.random() < 0.5
        score = score_hand(cards[:4], cards[4], crib)
        assert score.total == hand_total(cards[:4], cards[4], crib) == sum(g.points for g in score.groups)
