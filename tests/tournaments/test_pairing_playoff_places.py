"""Qualifier certainty: never marks in someone who could still end outside the top K, nor out someone
who could still end inside it (checked by brute force over every remaining result)."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.pairing import (
    ACC_ORDER,
    MatchResult,
    Qualification,
    Scoring,
    qualification,
    standings,
)

# What one remaining match can give its two players: single games with ACC values and a double
# skunk of 4, and a best of three won 2-1 (the loser takes a game's points too).
OUTCOMES = [(2, 0), (3, 0), (4, 0), (0, 2), (0, 3), (0, 4), (4, 2), (2, 4)]
MAX_POINTS = 4
BYE_POINTS = 2


@st.composite
def situations(draw) -> tuple:
    n = draw(st.integers(2, 6))
    players = list("abcdef"[:n])
    pick = st.sampled_from(players)
    pairs = st.tuples(pick, pick).filter(lambda p: p[0] != p[1])
    past = []
    for a, b in draw(st.lists(pairs, max_size=2 * n)):
        pa, pb = draw(st.sampled_from(OUTCOMES))
        spread = draw(st.integers(-20, 20))
        winner = a if pa > pb else b
        past.append(MatchResult(a, b, winner, int(pa > 0), int(pb > 0), pa, pb, spread))
    withdrawn = set(draw(st.lists(pick, max_size=1)))
    rounds_left = draw(st.integers(0, 1)) if n <= 5 else 0
    remaining = [] if rounds_left else draw(st.lists(pairs, max_size=3))
    byes = [(p, None) for p in draw(st.lists(pick, max_size=1))]
    k = draw(st.integers(1, n))
    return players, past, withdrawn, remaining + byes, rounds_left, k


def _outcomes(players: list, active: list, remaining: list, rounds_left: int):
    """Every way the rest can go, as points gained by each player (a superset of what can happen
    in unpaired rounds: there anyone may take anything from 0 to the most)."""
    matches = [(a, b) for a, b in remaining if b is not None]
    bye_gain = dict.fromkeys(players, 0)
    for a, b in remaining:
        if b is None:
            bye_gain[a] += BYE_POINTS
    per_round = [range(MAX_POINTS + 1)] * len(active) if rounds_left else []
    for results in product(OUTCOMES, repeat=len(matches)):
        for free in product(*per_round):
            gain = dict(bye_gain)
            for (a, b), (pa, pb) in zip(matches, results, strict=True):
                gain[a] += pa
                gain[b] += pb
            for p, g in zip(active, free, strict=False):
                gain[p] += g
            yield results, gain


@settings(max_examples=150, deadline=None)
@given(situations())
def test_never_in_when_it_could_end_out_nor_out_when_it_could_end_in(s: tuple) -> None:
    players, past, withdrawn, remaining, rounds_left, k = s
    table = standings(players, past, withdrawn=withdrawn)
    q = qualification(table, k, remaining=remaining, rounds_left=rounds_left, max_points=MAX_POINTS)
    assert q.qualified | q.eliminated | q.open == set(players)
    assert not (q.qualified & q.eliminated or q.qualified & q.open or q.eliminated & q.open)
    assert withdrawn <= q.eliminated
    active = [p for p in players if p not in withdrawn]
    now = {row.player: row.points for row in table}
    if not remaining and not rounds_left:
        return  # the final table: test_a_final_table_is_read_by_rank
    for _, gain in _outcomes(players, active, remaining, rounds_left):
        final = {p: now[p] + gain[p] for p in active}
        for p in active:
            # Ties on points count against p: their tie-breaks are still to come.
            level_or_above = sum(1 for o in active if o != p and final[o] >= final[p])
            above = sum(1 for o in active if o != p and final[o] > final[p])
            if level_or_above >= k:
                assert p not in q.qualified, (p, final)
            if above < k:
                assert p not in q.eliminated, (p, final)


@settings(max_examples=100, deadline=None)
@given(situations(), st.integers(0, 2**32 - 1))
def test_the_real_final_table_agrees(s: tuple, seed: int) -> None:
    # The same claim through standings() itself, its tie-breaks included, for sampled results.
    players, past, withdrawn, remaining, _, k = s
    rng = random.Random(seed)
    criteria = ("points", *rng.sample(["match_wins", "games_won", "spread", "head_to_head"], 3))
    # Once nothing is left the table given is read as final: it must be in the same order.
    table = standings(players, past, withdrawn=withdrawn, criteria=criteria)
    q = qualification(table, k, remaining=remaining, max_points=MAX_POINTS)
    for _ in range(10):
        new, byes = [], []
        for a, b in remaining:
            if b is None:
                byes.append(a)
                continue
            pa, pb = rng.choice(OUTCOMES)
            new.append(
                MatchResult(a, b, a if pa > pb else b, int(pa > 0), int(pb > 0), pa, pb, rng.randint(-9, 9))
            )
        final = standings(players, past + new, withdrawn=withdrawn, byes=byes, criteria=criteria)
        top = {row.player for row in final if not row.withdrawn}
        top = [row.player for row in final if row.player in top][:k]
        assert q.qualified <= set(top)
        assert not (q.eliminated & set(top))


@settings(max_examples=100, deadline=None)
@given(situations())
def test_a_final_table_is_read_by_rank(s: tuple) -> None:
    players, past, withdrawn, _, _, k = s
    table = standings(players, past, withdrawn=withdrawn, criteria=ACC_ORDER)
    q = qualification(table, k, max_points=MAX_POINTS)
    active = [row for row in table if not row.withdrawn]
    for i, row in enumerate(active):
        group = [r for r in active if r.rank == row.rank]
        first = active.index(group[0])
        if first + len(group) <= k:
            assert row.player in q.qualified
        elif first >= k:
            assert row.player in q.eliminated
        else:
            assert row.player in q.open and i < first + len(group)
    # Nothing open but a tie across the line: the director settles it (a cut of the cards).
    assert all(len([r for r in active if r.rank == row.rank]) > 1 for row in active if row.player in q.open)


def test_a_clear_lead_is_marked_before_the_last_round() -> None:
    past = [
        MatchResult("a", "e", "a", 1, 0, 3, 0, 40),
        MatchResult("b", "f", "b", 1, 0, 3, 0, 35),
        MatchResult("a", "c", "a", 1, 0, 3, 0, 33),
        MatchResult("b", "d", "b", 1, 0, 3, 0, 31),
        MatchResult("c", "e", "c", 1, 0, 2, 0, 5),
        MatchResult("d", "f", "d", 1, 0, 2, 0, 5),
    ]
    table = standings("abcdef", past)
    assert [row.points for row in table] == [6, 6, 2, 2, 0, 0]
    # One round of single games left, worth at most 3: nobody below can reach 6.
    q = qualification(table, 2, rounds_left=1, max_points=3)
    assert q.qualified == {"a", "b"} and q.eliminated == {"c", "d", "e", "f"} and q.settled
    q = qualification(table, 3, remaining=[("a", "b"), ("c", "d"), ("e", "f")], max_points=3)
    assert q.qualified == {"a", "b"} and not q.eliminated  # e can still win and pass c and d


def test_a_possible_tie_on_points_keeps_a_player_open() -> None:
    past = [MatchResult("a", "c", "a", 1, 0, 3, 0, 40), MatchResult("b", "d", "b", 1, 0, 2, 0, 5)]
    table = standings("abcd", past)
    # b (2 points) plays c (0): a plain win for c leaves them level on 2, to be split by tie-breaks.
    q = qualification(table, 2, remaining=[("a", "d"), ("b", "c")], max_points=3)
    assert "b" in q.open


def test_a_pending_bye_is_counted_as_sure() -> None:
    table = standings("abc", [MatchResult("a", "b", "a", 1, 0, 2, 0, 5)])
    q = qualification(table, 2, remaining=[("c", None)], max_points=3)
    assert q.qualified == {"a", "c"} and q.eliminated == {"b"}
    # Conservative: a is sure of second (b and c cannot both beat 2 in one game against each
    # other), but each rival's best is counted alone, so a stays open until that game is played.
    q = qualification(table, 2, remaining=[("c", "b")], max_points=3)
    assert q.open == {"a", "b", "c"}


def test_withdrawn_players_are_out_and_everyone_fits_when_few_remain() -> None:
    table = standings("abc", [], withdrawn=["c"])
    q = qualification(table, 2, rounds_left=3, max_points=4)
    assert q.qualified == {"a", "b"} and q.eliminated == {"c"} and q.settled


def test_refuses_negative_values_and_settled_means_nothing_open() -> None:
    with pytest.raises(ValueError):
        qualification([], -1, max_points=2)
    assert not Qualification(frozenset(), frozenset(), frozenset({"x"})).settled


def test_the_most_points_a_match_can_give() -> None:
    assert Scoring().most_match_points(1) == 3
    assert Scoring(double_skunk=4).most_match_points(5) == 12
    assert Scoring(win=2, skunk=3, double_skunk=3).most_match_points(3) == 6
