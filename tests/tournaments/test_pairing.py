"""Pairings (pure Python): round robin schedules, seeded brackets, qualifier counts, scoring."""

from __future__ import annotations

import ast
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from games.tournaments import bracket, pairing


def test_pairing_imports_no_django() -> None:
    files = [*Path(pairing.__file__).parent.glob("*.py"), Path(bracket.__file__)]
    for path in files:
        tree = ast.parse(path.read_text())
        names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        }
        assert not any(name and name.startswith(("django", "games")) for name in names), (path, names)


def test_the_package_still_exports_every_name_the_single_module_did() -> None:
    # models.py and services.py import these from games.tournaments.pairing.
    names = [
        "round_robin",
        "next_power_of_two",
        "bracket_order",
        "first_round",
        "bracket_rounds",
        "feeds",
        "round_name",
        "qualifier_count",
        "Scoring",
        "game_spread",
        "Standing",
        "MatchResult",
        "standings",
        "P",
    ]
    for name in names:
        assert hasattr(pairing, name), name


@pytest.mark.parametrize("n", range(2, 15))
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = pairing.round_robin(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    met = Counter(frozenset(p) for r in rounds for p in r if p[1] is not None)
    assert set(met) == {frozenset(c) for c in combinations(players, 2)}
    assert set(met.values()) == {1}
    for r in rounds:  # each player appears exactly once a round (in a match or on the bye)
        seen = [x for pair in r for x in pair if x is not None]
        assert sorted(seen) == sorted(players)


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_round_robin_byes_rotate(n: int) -> None:
    rounds = pairing.round_robin(list(range(n)))
    byes = [next(a for a, b in r if b is None) for r in rounds]
    assert sorted(byes) == list(range(n))  # everyone sits out exactly once
    assert all(sum(1 for _, b in r if b is None) == 1 for r in rounds)
    assert len(set(byes[:2])) == 2  # not the same player twice in a row


@pytest.mark.parametrize("n", [2, 4, 6, 8])
def test_round_robin_even_count_has_no_bye(n: int) -> None:
    assert all(b is not None for r in pairing.round_robin(list(range(n))) for _, b in r)


def test_round_robin_refuses_duplicates_and_handles_one_player() -> None:
    with pytest.raises(ValueError):
        pairing.round_robin(["a", "a"])
    assert pairing.round_robin(["a"]) == []


def test_round_robin_spreads_the_first_place() -> None:
    rounds = pairing.round_robin(list("abcdef"))
    firsts = Counter(a for r in rounds for a, _ in r)
    assert max(firsts.values()) - min(firsts.values()) <= 2


@pytest.mark.parametrize("size", [1, 2, 4, 8, 16, 32, 64])
def test_bracket_order_is_a_permutation_with_balanced_pairs(size: int) -> None:
    order = pairing.bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    if size > 1:
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


def test_bracket_order_refuses_a_non_power_of_two() -> None:
    with pytest.raises(ValueError):
        pairing.bracket_order(6)


def _simulate(seeded: list[int], upset=None) -> list[list[tuple]]:
    """Play a bracket out; the better seed wins unless ``upset(a, b)`` says otherwise."""
    pairs = pairing.first_round(seeded)
    rounds = [pairs]
    winners = []
    for a, b in pairs:
        winners.append(a if b is None else (b if upset and upset(a, b) else min(a, b)))
    while len(winners) > 1:
        pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
        rounds.append(pairs)
        winners = [b if upset and upset(a, b) else min(a, b) for a, b in pairs]
    return rounds


@pytest.mark.parametrize("n", range(2, 34))
def test_seeds_one_and_two_can_only_meet_in_the_final(n: int) -> None:
    seeded = list(range(1, n + 1))
    first = pairing.first_round(seeded)
    size = pairing.next_power_of_two(n)
    slots = [x for pair in first for x in pair]
    # Different halves of the bracket: they cannot meet before the final, whatever happens.
    half = size // 2
    assert (slots.index(1) < half) != (slots.index(2) < half)
    rounds = _simulate(seeded)
    assert len(rounds) == pairing.bracket_rounds(n)
    assert rounds[-1] == [(1, 2)]
    for r in rounds[:-1]:
        assert (1, 2) not in r and (2, 1) not in r


@pytest.mark.parametrize("n", range(2, 34))
def test_byes_go_to_the_top_seeds_and_round_two_is_full(n: int) -> None:
    seeded = list(range(1, n + 1))
    first = pairing.first_round(seeded)
    size = pairing.next_power_of_two(n)
    byes = sorted(a for a, b in first if b is None)
    assert byes == list(range(1, size - n + 1))
    assert all(a is not None for a, _ in first)  # never a bye against a bye
    assert len(first) == size // 2  # after round one exactly size/2 remain: a power of two
    assert sorted(x for pair in first for x in pair if x is not None) == seeded


def test_bracket_with_upsets_still_has_one_champion() -> None:
    rounds = _simulate(list(range(1, 12)), upset=lambda a, b: b is not None and (a + b) % 3 == 0)
    assert len(rounds[-1]) == 1


def test_first_round_refuses_too_few_or_duplicates() -> None:
    with pytest.raises(ValueError):
        pairing.first_round(["a"])
    with pytest.raises(ValueError):
        pairing.first_round(["a", "a"])


def test_feeds_and_round_names() -> None:
    assert pairing.feeds(2, 3) == (3, 1, 1)
    assert [pairing.round_name(r, 4) for r in (1, 2, 3, 4)] == [
        "Round 1",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]


@pytest.mark.parametrize(
    ("entrants", "chosen", "expected"),
    [
        (4, None, 2),
        (5, None, 2),
        (8, None, 2),
        (9, None, 3),
        (16, None, 4),
        (17, None, 5),
        (5, 3, 3),
        (5, 9, 5),
        (2, None, 2),
        (12, 1, 2),
    ],
)
def test_qualifier_count(entrants: int, chosen, expected: int) -> None:
    assert pairing.qualifier_count(entrants, chosen) == expected


def test_scoring_and_spread() -> None:
    acc = pairing.Scoring()
    assert [acc.game_points(s) for s in (0, 1, 2, 3)] == [2, 3, 3, 3]
    custom = pairing.Scoring(win=2, skunk=3, double_skunk=4)
    assert [custom.game_points(s) for s in (0, 1, 2, 3)] == [2, 3, 4, 4]
    assert pairing.game_spread(121, 95) == 26
    assert pairing.game_spread(121, 130) == 0  # never negative for the winner


def test_bracket_layout_centres_each_match_between_its_feeders() -> None:
    line = bracket.Line("x")
    rounds = {
        1: [(s, line, line, "", "finished") for s in range(4)],
        2: [(0, line, line, "", ""), (1, line, line, "", "")],
        3: [(0, line, line, "", "")],
    }
    drawing = bracket.layout(rounds, {1: "Quarter-finals", 2: "Semi-finals", 3: "Final"})
    by_place = {(b.x, b.mid_y) for b in drawing.boxes}
    assert len(drawing.boxes) == 7 and len(drawing.paths) == 6
    assert bracket.center_y(2, 0) == (bracket.center_y(1, 0) + bracket.center_y(1, 1)) // 2
    assert (bracket.column_x(3), bracket.center_y(3, 0)) in by_place
    assert drawing.width == 3 * bracket.BOX_W + 2 * bracket.GAP_X
