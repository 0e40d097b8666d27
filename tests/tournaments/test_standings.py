"""The standings order: qualifying points, then match wins, then games won, then point spread."""

from __future__ import annotations

from games.tournaments.pairing import MatchResult, Scoring, standings


def order(table) -> list:
    return [row.player for row in table]


def test_points_come_first() -> None:
    # a beats b with a skunk (3 points); b beats c plainly (2); c beats a plainly (2): a 3, b 2, c 2.
    table = standings(
        "abc",
        [
            MatchResult("a", "b", "a", 1, 0, 3, 0, 40),
            MatchResult("b", "c", "b", 1, 0, 2, 0, 5),
            MatchResult("c", "a", "c", 1, 0, 2, 0, 10),
        ],
    )
    assert order(table)[0] == "a"
    assert [(r.player, r.points, r.match_wins) for r in table][0] == ("a", 3, 1)


def test_equal_points_break_on_match_wins() -> None:
    # Best of 3: a wins one match 2-1 (4 points, skunks none) and loses one 0-2 ... give equal points.
    table = standings(
        "ab",
        [
            MatchResult("a", "x", "a", 2, 0, 4, 0, 0),
            MatchResult("b", "y", "y", 1, 2, 4, 4, 0),
        ],
    )
    a, b = (next(r for r in table if r.player == p) for p in "ab")
    assert a.points == b.points == 4
    assert a.match_wins == 1 and b.match_wins == 0
    assert order(table).index("a") < order(table).index("b")


def test_equal_points_and_match_wins_break_on_games_won() -> None:
    table = standings(
        "ab",
        [
            MatchResult("a", "x", "a", 2, 1, 6, 2, 0),  # a: 1 match win, 2 games, 6 points (two skunks)
            MatchResult("b", "y", "b", 3, 2, 6, 4, 50),  # b: 1 match win, 3 games, 6 points, more spread
        ],
    )
    a, b = (next(r for r in table if r.player == p) for p in "ab")
    assert (a.points, a.match_wins) == (b.points, b.match_wins)
    assert b.games_won > a.games_won
    assert order(table).index("b") < order(table).index("a")


def test_then_point_spread() -> None:
    table = standings(
        "abcd",
        [
            MatchResult("a", "c", "a", 1, 0, 2, 0, 10),
            MatchResult("b", "d", "b", 1, 0, 2, 0, 35),
        ],
    )
    assert order(table)[:2] == ["b", "a"]
    assert [r.spread for r in table] == [35, 10, -10, -35]
    assert [r.rank for r in table] == [1, 2, 3, 4]


def test_a_complete_tie_shares_the_rank_and_keeps_the_given_order() -> None:
    results = [MatchResult("a", "c", "a", 1, 0, 2, 0, 10), MatchResult("b", "d", "b", 1, 0, 2, 0, 10)]
    table = standings("abcd", results, order={"a": 1, "b": 0, "c": 2, "d": 3})
    assert order(table)[:2] == ["b", "a"]
    assert [r.rank for r in table] == [1, 1, 3, 3]


def test_withdrawn_players_go_to_the_bottom() -> None:
    table = standings("ab", [MatchResult("a", "b", "a", 1, 0, 2, 0, 50)], withdrawn=["a"])
    assert order(table) == ["b", "a"]


def test_counts_played_won_lost() -> None:
    table = standings(
        "abc",
        [
            MatchResult("a", "b", "a", 1, 0, 2, 0, 20),
            MatchResult("a", "c", "c", 0, 1, 0, 3, -40),
        ],
    )
    a = next(r for r in table if r.player == "a")
    assert (a.played, a.match_wins, a.match_losses, a.games_won, a.games_lost, a.points, a.spread) == (
        2,
        1,
        1,
        1,
        1,
        2,
        -20,
    )
    assert order(table)[0] == "c"


def test_acc_scoring_values() -> None:
    assert Scoring().game_points(1) == 3 and Scoring().game_points(0) == 2
