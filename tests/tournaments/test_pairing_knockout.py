"""The playoff of the top K qualifiers, K anything from 2 to 256 (not only powers of two): byes to the
top seeds, and a bracket in which the better seeds can only meet late."""

from __future__ import annotations

import pytest

from games.tournaments.pairing import bracket_order, bracket_rounds, feeds, first_round, next_power_of_two


def play_out(k: int) -> list[list[tuple[int, int | None]]]:
    """Every round of a bracket of seeds 1..k in which the better seed always wins, placed by
    ``feeds`` as the site does."""
    rounds = [first_round(list(range(1, k + 1)))]
    while len(rounds[-1]) > 1:
        nxt: list[list[int | None]] = [[None, None] for _ in range(len(rounds[-1]) // 2)]
        for slot, (a, b) in enumerate(rounds[-1]):
            winner = a if b is None else min(a, b)
            _, to_slot, side = feeds(len(rounds), slot)
            nxt[to_slot][side] = winner
        rounds.append([(a, b) for a, b in nxt])  # type: ignore[misc]
    return rounds


@pytest.mark.parametrize("k", range(2, 257))
def test_a_playoff_of_any_size_gives_byes_to_the_top_seeds_and_protects_them(k: int) -> None:
    size = next_power_of_two(k)
    first = first_round(list(range(1, k + 1)))
    assert len(first) == size // 2
    assert sorted(a for a, b in first if b is None) == list(range(1, size - k + 1))  # byes: the top seeds
    # Read a bye as the missing seed it stands for: every first-round pair adds to size + 1.
    seeds = [s for pair in first for s in pair]
    slots = [s if s is not None else size + 1 - seeds[i - 1] for i, s in enumerate(seeds)]
    assert slots == bracket_order(size)
    rounds = play_out(k)
    assert len(rounds) == bracket_rounds(k)
    for r, matches in enumerate(rounds, start=1):
        if r == 1:
            continue
        # With no upsets the round of 2m is the top 2m seeds, best against worst of them.
        field = size >> (r - 1)
        assert sorted(s for m in matches for s in m) == list(range(1, field + 1))
        assert all(a + b == field + 1 for a, b in matches)  # type: ignore[operator]
    assert rounds[-1] == [(1, 2)]


@pytest.mark.parametrize("k", [2, 3, 5, 6, 7, 12, 24, 48, 100, 129, 200, 255, 256])
def test_seeds_in_the_top_two_to_the_j_are_in_different_parts_of_the_bracket(k: int) -> None:
    size = next_power_of_two(k)
    place = {s: i for i, s in enumerate(bracket_order(size))}
    part = 2
    while part <= size:
        width = size // part
        # Seeds 1..part each sit in their own 1/part of the bracket: they can only meet late.
        assert len({place[s] // width for s in range(1, part + 1)}) == part
        part *= 2
