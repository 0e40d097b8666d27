"""bench.load's verdict on the site's load targets, from a run's figures."""

from __future__ import annotations

from bench.load import over_echo, targets


def level(games: int, p50: float, p99: float, echo_p50: float, echo_p99: float, errors: int = 0) -> dict:
    latency = {"p50": p50, "p99": p99}
    echo = {"p50": echo_p50, "p99": echo_p99}
    return {"games": games, "latency_ms": latency, "echo_latency_ms": echo, "errors": errors,
            "latency_over_echo": over_echo(latency, echo)}


def test_the_ratio_to_the_echo_is_taken_at_each_percentile():
    assert over_echo({"p50": 12.0, "p99": 30.0}, {"p50": 1.0, "p99": 6.0}) == {"p50": 12.0, "p99": 5.0}
    assert over_echo({"p50": None, "p99": None}, {"p50": 1.0, "p99": 0.0}) == {"p50": None, "p99": None}


def test_two_hundred_games_need_no_errors_and_p99_under_the_limit():
    assert targets([level(200, 90, 240, 4, 30)], 250) == [
        "200 games with no errors and p99 under 250 ms: met (p99 240 ms, 0 errors)"]
    assert "not met" in targets([level(200, 90, 260, 4, 30)], 250)[0]
    assert "not met" in targets([level(200, 90, 240, 4, 30, errors=1)], 250)[0]


def test_fifty_games_must_be_within_five_echoes_at_the_median_and_at_p99():
    assert targets([level(50, 5, 25, 1, 5)], 250) == [
        "50 games within 5x the echo: met (5.0x at p50, 5.0x at p99)"]
    assert "not met (12.0x at p50, 5.0x at p99)" in targets([level(50, 12, 25, 1, 5)], 250)[0]


def test_levels_the_targets_do_not_name_are_not_judged():
    assert targets([level(100, 10, 50, 1, 5), level(400, 900, 5000, 8, 80, errors=1)], 250) == []


def test_the_window_second_by_second():
    from bench.load import per_second

    start = 100.0
    sent = [100.1, 100.5, 100.9, 102.2, 102.3]
    ms = [10.0, 30.0, 20.0, 400.0, 5.0]
    assert per_second(sent, ms, start) == [
        {"second": 0, "moves": 3, "p50": 20.0, "p95": 30.0, "max": 30.0},
        {"second": 2, "moves": 2, "p50": 400.0, "p95": 400.0, "max": 400.0},
    ]
