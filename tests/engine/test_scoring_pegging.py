"""Pegging: what the card just laid scores (RULES.md, "The play"). Go and last card are the game's
business and never appear here."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.scoring import pegging_total, score_pegging

# series (cards since the last reset, the last one just laid), count, (fifteen, thirty_one, pair, run)
CASES = [
    # RULES.md / seed 001: 7-5-6 scores a run of 3 on the 6; a 4 then scores 4.
    ("7H 5S", 12, (0, 0, 0, 0)),
    ("7H 5S 6D", 18, (0, 0, 0, 3)),
    ("7H 5S 6D 4C", 22, (0, 0, 0, 4)),
    # Seed 001: 8-7-7-6: the 7 makes 15, the second 7 pairs, the 6 scores nothing.
    ("8H 7S", 15, (2, 0, 0, 0)),
    ("8H 7S 7D", 22, (0, 0, 2, 0)),
    ("8H 7S 7D 6C", 28, (0, 0, 0, 0)),
    # RULES.md: 3-4-5-6-3 scores 4 on the last 3 (4-5-6-3), not 8 as seed 001's FAQ claims.
    ("3H 4S 5D", 12, (0, 0, 0, 3)),
    ("3H 4S 5D 6C", 18, (0, 0, 0, 4)),
    ("3H 4S 5D 6C 3C", 21, (0, 0, 0, 4)),
    # Pairs: only the same rank directly before counts.
    ("4H 4S", 8, (0, 0, 2, 0)),
    ("4H 4S 4D", 12, (0, 0, 6, 0)),  # pair royal
    ("4H 4S 4D 4C", 16, (0, 0, 12, 0)),  # double pair royal
    ("4H 4S 5D 4C", 17, (0, 0, 0, 0)),  # the 5 breaks the pair; 4-5-4 is no run
    ("TH KS", 20, (0, 0, 0, 0)),  # ten-cards pair by rank only
    ("KH KS", 20, (0, 0, 2, 0)),
    ("2H 4S 4D", 10, (0, 0, 2, 0)),
    # Pairs with 15 and 31.
    ("5H 5S", 10, (0, 0, 2, 0)),
    ("5H 5S 5D", 15, (2, 0, 6, 0)),
    ("7C 2H 2S 2D 2C", 15, (2, 0, 12, 0)),  # "15 for 14" (plus last card in the game)
    ("KH 7S 7D 7C", 31, (0, 2, 6, 0)),
    ("TH TS 4D 4C 3H", 31, (0, 2, 0, 0)),
    ("KH QS 8D 3C", 31, (0, 2, 0, 0)),
    ("9H 9S 9D 4C", 31, (0, 2, 0, 0)),
    ("AH AS 9D TC TH", 31, (0, 2, 2, 0)),
    # Runs with 15 and 31.
    ("4H 5S 6D", 15, (2, 0, 0, 3)),
    ("4H 6S 5D", 15, (2, 0, 0, 3)),
    ("KH 8S 6D 7C", 31, (0, 2, 0, 3)),
    ("AH KS QD JC", 31, (0, 2, 0, 3)),  # J-Q-K
    ("KH QS JD AC", 31, (0, 2, 0, 0)),  # K-Q-J-A: the ace is low, no run
    ("AH 2S 3D 4C 5H", 15, (2, 0, 0, 5)),
    # Runs in any order, ace low, faces by rank.
    ("2H AS 3D", 6, (0, 0, 0, 3)),
    ("3H AS 2D", 6, (0, 0, 0, 3)),
    ("JH QS KD", 30, (0, 0, 0, 3)),
    ("TH JS QD", 30, (0, 0, 0, 3)),
    ("QH KS AD", 21, (0, 0, 0, 0)),  # Q-K-A is not a run
    ("5H 3S 4D 6C", 18, (0, 0, 0, 4)),  # 3-4-6 is no run but 5-3-4-6 is
    ("AH 2S 3D 4C 5H 6S 7D", 28, (0, 0, 0, 7)),
    ("4H 5S 6D 9C", 24, (0, 0, 0, 0)),  # the run must end with the card just laid
    ("6H 4S 5D 6C", 21, (0, 0, 0, 3)),  # 4-5-6 again after the 6 repeats
    # A duplicate breaks a run.
    ("5H 6S 6D", 17, (0, 0, 2, 0)),
    ("5H 6S 6D 7C", 24, (0, 0, 0, 0)),
    ("3H 4S 3D 5C", 15, (2, 0, 0, 3)),  # 4-3-5 is a run; the first 3 is not needed
    ("2H 3S 4D 2C 3H", 14, (0, 0, 0, 3)),  # 4-2-3
    # A single card scores only by count.
    ("5H", 5, (0, 0, 0, 0)),
    ("TH 5S", 15, (2, 0, 0, 0)),
]


@pytest.mark.parametrize(("series", "count", "parts"), CASES, ids=[c[0] for c in CASES])
def test_pegging_score(series: str, count: int, parts: tuple[int, int, int, int]) -> None:
    cards = parse_cards(series)
    assert sum(c.value for c in cards) == count  # the table's own arithmetic
    score = score_pegging(cards)
    assert score.count == count
    assert (score.fifteen, score.thirty_one, score.pair, score.run) == parts
    assert score.total == sum(parts) == sum(g.points for g in score.parts)
    assert pegging_total(cards) == score.total


def test_parts_texts_and_cards() -> None:
    score = score_pegging(parse_cards("7C 2H 2S 2D 2C"))
    assert [(g.kind, g.text, g.points) for g in score.parts] == [
        ("fifteen", "Fifteen for 2", 2),
        ("pair", "Double pair royal for 12", 12),
    ]
    assert score.parts[1].cards == parse_cards("2H 2S 2D 2C")
    texts = [g.text for g in score_pegging(parse_cards("KH 7S 7D 7C")).parts]
    assert texts == ["31 for 2", "Pair royal for 6"]
    run = score_pegging(parse_cards("7H 5S 6D 4C")).parts
    assert [(g.kind, g.text) for g in run] == [("run", "Run of 4 for 4")]
    assert run[0].cards == parse_cards("7H 5S 6D 4C")
    assert score_pegging(parse_cards("3H 4S 5D 6C 3C")).parts[0].cards == parse_cards("4S 5D 6C 3C")
    assert score_pegging(parse_cards("8H 7S 7D")).parts[0].text == "Pair for 2"


def test_only_the_series_given_counts() -> None:
    # The previous series ended ... 5-6 (or Q-K, or a 9); after the reset only the new cards count,
    # so the caller passes just them and a lone card scores nothing.
    assert score_pegging(parse_cards("7H")).total == 0
    assert score_pegging(parse_cards("JC")).total == 0
    assert score_pegging(parse_cards("9C")).total == 0
    # Within one series the same cards do score.
    assert score_pegging(parse_cards("5H 6S 7H")).run == 3
    assert score_pegging(parse_cards("9S 9C")).pair == 2


@pytest.mark.parametrize("series", ["KH QS JD 5C", "TH TS TD 2C", "9H 9S 9D 5C"])
def test_over_31_raises(series: str) -> None:
    with pytest.raises(ValueError, match="over 31"):
        score_pegging(parse_cards(series))


def test_empty_or_repeated_series_raise() -> None:
    with pytest.raises(ValueError):
        score_pegging(())
    with pytest.raises(ValueError):
        score_pegging(parse_cards("5H 5H"))
    with pytest.raises(ValueError, match="not a card"):
        score_pegging(["5H"])  # type: ignore[list-item]
