"""Standings with byes and the director's choice of tie-breaks (head-to-head, a cut of the cards)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.pairing import (
    ACC_ORDER,
    CRITERIA,
    ByeCredit,
    MatchResult,
    Scoring,
    Standing,
    card_rank,
    standings,
)


def names(table: list[Standing]) -> list:
    return [row.player for row in table]


def row(table: list[Standing], player) -> Standing:
    return next(r for r in table if r.player == player)


# --- byes -----------------------------------------------------------------------------------------


def test_a_bye_is_a_plain_win_with_no_spread_by_default() -> None:
    table = standings("abc", [MatchResult("a", "b", "a", 1, 0, 3, 0, 40)], byes=["c"])
    c = row(table, "c")
    assert (c.points, c.match_wins, c.games_won, c.spread, c.played, c.byes) == (2, 1, 1, 0, 0, 1)
    assert c.match_losses == c.games_lost == 0


def test_a_bye_can_be_worth_what_the_director_says() -> None:
    credit = ByeCredit(points=3, games=2, match_win=False, spread=10)
    table = standings("ab", [], byes=["a", "a"], bye=credit)
    a = row(table, "a")
    assert (a.points, a.games_won, a.match_wins, a.spread, a.byes) == (6, 4, 0, 20, 2)
    assert ByeCredit.win(Scoring(win=5)).points == 5


def test_a_bye_with_the_average_spread_uses_the_matches_played_only() -> None:
    results = [MatchResult("a", "b", "a", 1, 0, 2, 0, 31), MatchResult("a", "c", "c", 0, 1, 0, 2, -10)]
    table = standings("abcd", results, byes=["a", "a", "d"], bye=ByeCredit(spread="average"))
    assert row(table, "a").spread == 21 + 2 * 11  # 21 over two matches: 10.5, rounded away from zero
    assert row(table, "d").spread == 0  # no match played: no average to give


def test_byes_for_players_not_in_the_table_are_ignored() -> None:
    assert names(standings("ab", [], byes=["z"])) == ["a", "b"]


# --- criteria -------------------------------------------------------------------------------------


def test_unknown_or_repeated_criteria_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="head_to_head"):
        standings("ab", [], criteria=("points", "buchholz"))
    with pytest.raises(ValueError, match="twice"):
        standings("ab", [], criteria=("spread", "spread"))
    with pytest.raises(ValueError):
        standings("ab", [], cut_wins="middle")  # type: ignore[arg-type]


def test_games_won_can_come_before_points() -> None:
    results = [MatchResult("a", "x", "a", 1, 0, 3, 0, 40), MatchResult("b", "y", "b", 2, 1, 4, 2, 5)]
    assert names(standings("ab", results))[:2] == ["b", "a"]  # 4 points beat 3
    assert names(standings("ab", results, criteria=("games_won", "points")))[:2] == ["b", "a"]
    assert names(standings("ab", results, criteria=("spread", "points")))[:2] == ["a", "b"]


def test_head_to_head_separates_two_level_players_who_met() -> None:
    results = [
        MatchResult("a", "b", "b", 0, 1, 0, 2, -5),
        MatchResult("a", "c", "a", 1, 0, 2, 0, 60),
        MatchResult("b", "c", "c", 0, 1, 0, 2, -1),
    ]
    by_spread = standings("ab", results, criteria=("points", "spread"))
    assert names(by_spread) == ["a", "b"]
    table = standings("ab", results, criteria=("points", "head_to_head", "spread"))
    assert names(table) == ["b", "a"] and [r.rank for r in table] == [1, 2]


def test_head_to_head_needs_exactly_two_level_players() -> None:
    # A circle: a beat b, b beat c, c beat a, all 2 points: head-to-head cannot order three.
    results = [
        MatchResult("a", "b", "a", 1, 0, 2, 0, 1),
        MatchResult("b", "c", "b", 1, 0, 2, 0, 1),
        MatchResult("c", "a", "c", 1, 0, 2, 0, 1),
    ]
    table = standings("abc", results, criteria=("points", "head_to_head"))
    assert [r.rank for r in table] == [1, 1, 1]


def test_head_to_head_does_nothing_for_two_who_never_met() -> None:
    results = [MatchResult("a", "x", "a", 1, 0, 2, 0, 3), MatchResult("b", "y", "b", 1, 0, 2, 0, 9)]
    table = standings("ab", results, criteria=("points", "head_to_head"))
    assert [r.rank for r in table] == [1, 1]
    table = standings("ab", results, criteria=("points", "head_to_head", "spread"))
    assert names(table) == ["b", "a"]


def test_head_to_head_with_a_split_series_leaves_them_level() -> None:
    results = [MatchResult("a", "b", "a", 1, 0, 2, 0, 5), MatchResult("b", "a", "b", 1, 0, 2, 0, 5)]
    assert [r.rank for r in standings("ab", results, criteria=("points", "head_to_head"))] == [1, 1]


def test_the_cut_low_card_first_by_default_or_high_when_chosen() -> None:
    criteria = ("points", "cut")
    cut = {"a": "Q", "b": "3S", "c": 3, "d": "A"}
    assert names(standings("abcde", [], criteria=criteria, cut=cut)) == ["d", "b", "c", "a", "e"]
    table = standings("abcde", [], criteria=criteria, cut=cut, cut_wins="high")
    assert names(table) == ["a", "b", "c", "d", "e"]
    assert [r.rank for r in table] == [1, 2, 2, 4, 5]  # equal cards stay level; no card comes last


def test_card_rank_refuses_what_is_not_a_rank() -> None:
    assert card_rank("10H") == 10
    with pytest.raises(ValueError):
        card_rank("Z")


def test_withdrawn_players_stay_at_the_bottom_whatever_the_criteria() -> None:
    results = [MatchResult("a", "b", "a", 1, 0, 2, 0, 50)]
    table = standings("abc", results, withdrawn=["a"], criteria=("spread",))
    assert names(table) == ["c", "b", "a"]


# --- properties -----------------------------------------------------------------------------------


def _legacy(players: list, results: list[MatchResult], order: dict, withdrawn: set) -> list[tuple]:
    """The table as the single-module version ordered it: one sort, ranks shared on tie_key."""
    table = sorted(standings(players, results, order=order, withdrawn=withdrawn), key=Standing.sort_key)
    out, rank = [], 0
    for i, r in enumerate(table):
        rank = rank if i and table[i - 1].tie_key() == r.tie_key() else i + 1
        out.append((r.player, rank))
    return out


@st.composite
def tournaments(draw, max_players: int = 10) -> tuple:
    n = draw(st.integers(2, max_players))
    players = list(range(n))
    pairs = st.tuples(st.sampled_from(players), st.sampled_from(players)).filter(lambda p: p[0] != p[1])
    results = []
    for a, b in draw(st.lists(pairs, max_size=3 * n)):
        won_a = draw(st.integers(0, 2))
        won_b = draw(st.integers(0, 2))
        winner = a if won_a > won_b else b if won_b > won_a else None
        spread = draw(st.integers(-40, 40))
        results.append(MatchResult(a, b, winner, won_a, won_b, 2 * won_a, 2 * won_b, spread))
    byes = draw(st.lists(st.sampled_from(players), max_size=n))
    withdrawn = set(draw(st.lists(st.sampled_from(players), max_size=2)))
    order = dict(zip(players, draw(st.permutations(players)), strict=True))
    cut = {p: draw(st.integers(1, 4)) for p in draw(st.lists(st.sampled_from(players), max_size=n))}
    return players, results, byes, withdrawn, order, cut


@settings(max_examples=100, deadline=None)
@given(tournaments())
def test_the_default_order_is_the_single_module_order(t: tuple) -> None:
    players, results, _, withdrawn, order, _ = t
    table = standings(players, results, order=order, withdrawn=withdrawn)
    assert [(r.player, r.rank) for r in table] == _legacy(players, results, order, withdrawn)


@settings(max_examples=120, deadline=None)
@given(
    tournaments(),
    st.permutations(CRITERIA).flatmap(lambda p: st.integers(1, len(p)).map(lambda k: tuple(p[:k]))),
    st.sampled_from(["low", "high"]),
)
def test_the_table_is_a_total_order_consistent_with_the_criteria(t: tuple, criteria: tuple, wins) -> None:
    players, results, byes, withdrawn, order, cut = t
    table = standings(
        players,
        results,
        order=order,
        withdrawn=withdrawn,
        byes=byes,
        criteria=criteria,
        cut=cut,
        cut_wins=wins,
    )
    assert sorted(names(table)) == players
    sign = 1 if wins == "low" else -1
    keys = {
        "points": lambda s: -s.points,
        "match_wins": lambda s: -s.match_wins,
        "games_won": lambda s: -s.games_won,
        "spread": lambda s: -s.spread,
        "cut": lambda s: (0, sign * cut[s.player]) if s.player in cut else (1, 0),
    }
    beat = Counter((r.winner, r.b if r.winner == r.a else r.a) for r in results if r.winner is not None)
    met = {frozenset((r.a, r.b)) for r in results}

    def level_before(x: Standing, criterion_index: int) -> list[Standing]:
        """Who is still level with ``x`` when the criterion at ``criterion_index`` is applied."""
        before = [keys[c] for c in criteria[:criterion_index] if c != "head_to_head"]
        return [y for y in table if y.withdrawn == x.withdrawn and all(k(y) == k(x) for k in before)]

    for i, (x, y) in enumerate(zip(table, table[1:], strict=False)):
        assert x.withdrawn <= y.withdrawn
        if x.withdrawn != y.withdrawn:
            assert y.rank == i + 2
            continue
        decided = False
        for c_index, c in enumerate(criteria):
            if c == "head_to_head":
                group = {g.player for g in level_before(x, c_index)}
                pair = frozenset((x.player, y.player))
                x_wins, y_wins = beat[(x.player, y.player)], beat[(y.player, x.player)]
                if group == pair and pair in met and x_wins != y_wins:
                    assert x_wins > y_wins
                    decided = True
                    break
                continue
            if keys[c](x) != keys[c](y):
                assert keys[c](x) < keys[c](y), (c, x, y)
                decided = True
                break
        if decided:
            assert y.rank == i + 2  # a rank counts everyone ahead
        else:
            assert y.rank == x.rank and x.order <= y.order
    assert table[0].rank == 1


@settings(max_examples=100, deadline=None)
@given(tournaments())
def test_points_add_up_with_byes(t: tuple) -> None:
    players, results, byes, _, _, _ = t
    table = standings(players, results, byes=byes)
    real = sum(r.points_a + r.points_b for r in results)
    assert sum(r.points for r in table) == real + 2 * len(byes)
    assert sum(r.byes for r in table) == len(byes)
    assert sum(r.played for r in table) == 2 * len(results)
    assert ACC_ORDER == ("points", "match_wins", "games_won", "spread")
