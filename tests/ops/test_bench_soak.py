"""bench.load --soak's figures and verdicts, from made-up records: no servers."""

from __future__ import annotations

from bench.load import soak_rules
from bench.load.bots import Bot, latencies, resolved
from bench.load.procfs import Reading
from bench.load.soak_report import minute_line
from bench.load.soak_rules import Kill, check_moves, leaks, memory, minutes, restart_windows, split_errors

START = 1000.0


def reading(at: float, pid: int = 11, *, port: int = 8400, age: float | None = None, rss: float = 100.0,
            database: int = 4, redis: int = 3, clients: int = 10) -> Reading:
    """A reading ``at`` seconds into the soak; the process started with the soak unless ``age`` says."""
    return Reading(at=START + at, port=port, pid=pid, age_s=at + 30 if age is None else age, rss_mb=rss,
                   database=database, redis=redis, clients=clients)


# --- errors around restarts --------------------------------------------------------------------------


def test_an_error_belongs_to_a_restart_from_the_kill_to_the_grace_after_the_worker_is_back():
    kills = [Kill(at=100.0, port=8401, signal="SIGKILL", old_pid=1, new_pid=2, back_s=3.0)]
    grace = soak_rules.RESTART_GRACE_SECONDS
    assert restart_windows(kills) == [(100.0, 103.0 + grace)]
    errors = [(99.9, "stalled"), (100.0, "socket_closed"), (102.0, "http_ClientConnectorError"),
              (103.0 + grace, "socket_closed"), (103.1 + grace, "act_500")]
    assert split_errors(errors, restart_windows(kills)) == {
        "restart": 3, "other": 2,
        "restart_kinds": {"socket_closed": 2, "http_ClientConnectorError": 1},
        "other_kinds": {"stalled": 1, "act_500": 1},
    }


def test_a_worker_that_never_came_back_keeps_the_window_open_for_the_longest_wait():
    kills = [Kill(at=100.0, port=8401, signal="SIGTERM", old_pid=1, new_pid=None, back_s=None)]
    assert restart_windows(kills) == [
        (100.0, 100.0 + soak_rules.RESTART_WAIT_SECONDS + soak_rules.RESTART_GRACE_SECONDS)]


# --- minute by minute --------------------------------------------------------------------------------


def test_minutes_count_moves_and_latencies_by_when_they_were_sent():
    accepted = [START - 5, START + 1, START + 2, START + 59.9, START + 60, START + 180]
    lat = [(START + 1, 10.0), (START + 2, 30.0), (START + 59.9, 20.0), (START + 60, 500.0),
           (START + 180, 1.0)]
    rows = minutes(START, 3, accepted, lat, [], [], [])
    assert [r["moves"] for r in rows] == [3, 1, 0]  # the set-up's and the wind-down's moves are left out
    assert [r["moves_per_second"] for r in rows] == [0.1, 0.0, 0.0]
    assert rows[0]["latency_ms"] == {"p50": 20.0, "p99": 30.0, "n": 3}
    assert rows[1]["latency_ms"] == {"p50": 500.0, "p99": 500.0, "n": 1}
    assert rows[2]["latency_ms"] == {"p50": None, "p99": None, "n": 0}


def test_minutes_split_errors_and_keep_set_up_and_wind_down_errors_in_the_first_and_last_minute():
    kills = [Kill(at=START + 70, port=8401, signal="SIGKILL", old_pid=1, new_pid=2, back_s=2.0)]
    errors = [(START - 10, "setup_timeout"), (START + 70.5, "socket_closed"), (START + 75, "http_x"),
              (START + 100, "stalled"), (START + 200, "wind_down_timeout")]
    rows = minutes(START, 2, [], [], errors, kills, [])
    assert [(r["errors_restart"], r["errors_other"]) for r in rows] == [(0, 1), (2, 2)]
    assert rows[1]["kills"] == [{"at_s": 70.0, "port": 8401, "signal": "SIGKILL", "back_s": 2.0}]


def test_each_minute_shows_the_last_reading_of_each_worker_port():
    readings = [reading(5, 11, rss=90), reading(55, 11, rss=91), reading(55, 21, port=8401, rss=80),
                reading(65, 11, rss=92), reading(66, 22, port=8401, age=3, rss=60)]  # 8401 restarted
    rows = minutes(START, 2, [], [], [], [], readings)
    assert rows[0]["workers"][8400]["rss_mb"] == 91
    assert rows[0]["workers"][8401]["pid"] == 21
    assert rows[1]["workers"][8401] == {"pid": 22, "rss_mb": 60, "database": 4, "redis": 3, "clients": 10}
    line = minute_line(rows[1], [8400, 8401])
    assert line.startswith("minute   2:   0.0 moves/s, latency p50   None p99    None ms,"
                           " errors 0 in restarts + 0 other | ")
    assert "| 8400 pid 11: 92.0 MB, db 4, redis 3, clients 10 | 8401 pid 22: 60.0 MB," in line
    assert minute_line(minutes(START, 1, [], [], [], [], [])[0], [8400]).endswith("| 8400: no reading")


# --- the move log ------------------------------------------------------------------------------------


def game(version: int, moves: list[tuple[int, str, str]]) -> dict:
    return {"version": version, "move_count": len(moves), "moves": moves}


def test_every_accepted_move_is_the_row_at_its_seq():
    # Accepted at version 1 (the game's start), then four moves: versions 2..5 are seqs 1..4.
    log = {7: game(5, [(1, "a", "cut_for_deal"), (2, "b", "cut_for_deal"), (3, "a", "discard"),
                       (4, "b", "discard")])}
    accepted = [(0.0, 7, 2, "a", "cut_for_deal"), (0.0, 7, 3, "b", "cut_for_deal"),
                (0.0, 7, 4, "a", "discard"), (0.0, 7, 5, "b", "discard")]
    check = check_moves(log, accepted, [])
    assert check["ok"] and check["moves_logged"] == 4 and check["accepted"] == 4
    assert check["lost"] == check["duplicated"] == check["unaccounted"] == check["games_with_gaps"] == 0


def test_an_accepted_move_missing_from_the_log_is_lost():
    log = {7: game(3, [(1, "a", "play"), (2, "b", "play")])}
    accepted = [(0.0, 7, 2, "a", "play"), (0.0, 7, 3, "b", "play"), (0.0, 7, 4, "a", "play"),
                (0.0, 8, 2, "a", "play")]  # a game the log does not have
    check = check_moves(log, accepted, [])
    assert not check["ok"] and check["lost"] == 2
    assert check["samples"] == ["game 7 version 4: a play not in the log",
                                "game 8 version 2: a play not in the log"]


def test_a_row_by_another_player_or_of_another_kind_does_not_count_for_the_accepted_move():
    log = {7: game(2, [(1, "b", "play")])}
    assert check_moves(log, [(0.0, 7, 2, "a", "play")], [])["lost"] == 1
    assert check_moves(log, [(0.0, 7, 2, "b", "go")], [])["lost"] == 1


def test_a_version_accepted_twice_and_a_seq_logged_twice_are_duplicates():
    log = {7: game(3, [(1, "a", "play"), (2, "b", "play"), (2, "b", "play")])}
    log[7]["move_count"] = 2  # the game counts two moves; the log has a third row, a repeat of seq 2
    accepted = [(0.0, 7, 2, "a", "play"), (0.0, 7, 2, "a", "play"), (0.0, 7, 3, "b", "play")]
    check = check_moves(log, accepted, [])
    assert not check["ok"]
    assert check["duplicated"] == 2 and check["games_with_gaps"] == 1 and check["lost"] == 0


def test_a_gap_in_the_seqs_fails_the_check():
    log = {7: game(4, [(1, "a", "play"), (3, "a", "play")])}
    check = check_moves(log, [], [(0.0, 7, 1, "a", "play"), (0.0, 7, 3, "a", "play")])
    assert check["games_with_gaps"] == 1 and not check["ok"]


def test_a_row_nobody_was_told_of_is_unaccounted_unless_a_move_in_doubt_explains_it():
    log = {7: game(3, [(1, "a", "play"), (2, "b", "play")])}
    accepted = [(0.0, 7, 2, "a", "play")]
    check = check_moves(log, accepted, [])
    assert check["unaccounted"] == 1 and not check["ok"]
    assert check["samples"] == ["game 7 seq 2: b play never accepted"]
    # b's answer was lost (sent from version 2): the move was made all the same, and that is fine.
    check = check_moves(log, accepted, [(0.0, 7, 2, "b", "play"), (0.0, 7, 3, "a", "play")])
    assert check["ok"] and check["in_doubt"] == 2 and check["in_doubt_made"] == 1


def test_a_move_in_doubt_may_land_one_further_when_the_other_player_acted_alongside():
    # Both discard at once from version 3: a's lands first (seq 3, version 4), b's answer is lost and
    # its discard lands after it (seq 4, version 5).
    log = {7: game(5, [(1, "a", "cut_for_deal"), (2, "b", "cut_for_deal"), (3, "a", "discard"),
                       (4, "b", "discard")])}
    accepted = [(0.0, 7, 2, "a", "cut_for_deal"), (0.0, 7, 3, "b", "cut_for_deal"),
                (0.0, 7, 4, "a", "discard")]
    assert check_moves(log, accepted, [(0.0, 7, 3, "b", "discard")])["ok"]
    # One move in doubt explains one row, not two.
    log[7]["moves"].append((5, "b", "discard"))
    log[7]["version"], log[7]["move_count"] = 6, 5
    assert check_moves(log, accepted, [(0.0, 7, 3, "b", "discard")])["unaccounted"] == 1


# --- memory and connections --------------------------------------------------------------------------


def test_memory_is_judged_from_the_end_of_the_warm_up_to_the_last_reading():
    readings = [reading(t, rss=100 + t / 60) for t in range(0, 601, 30)]  # +1 MB a minute
    result = memory(readings, START, warmup_s=300)
    [worker] = result["workers"]
    assert worker["baseline_at_s"] == 300 and worker["baseline_mb"] == 105.0 and worker["last_mb"] == 110.0
    assert worker["change_pct"] == 4.8 and worker["flat"] and result["ok"] is True
    growing = [reading(t, rss=100 + t / 20) for t in range(0, 601, 30)]  # +3 MB a minute
    assert memory(growing, START, warmup_s=300)["ok"] is False
    shrinking = [reading(t, rss=200 - t / 10) for t in range(0, 601, 30)]
    assert memory(shrinking, START, warmup_s=300)["ok"] is False  # flat means either way


def test_a_process_is_not_judged_before_its_own_warm_up_and_a_minute_more():
    # The soak has run 10 minutes; the worker on 8401 was restarted at minute 7 (a new pid, young).
    readings = [reading(t, 11, rss=100) for t in range(0, 601, 30)]
    readings += [reading(t, 22, port=8401, age=t - 420, rss=50 + t) for t in range(420, 601, 30)]
    result = memory(readings, START, warmup_s=300)
    by_pid = {w["pid"]: w for w in result["workers"]}
    assert by_pid[11]["judged"] and by_pid[11]["flat"]
    assert not by_pid[22]["judged"] and "warm-up" in by_pid[22]["why_not"]
    assert result["ok"] is True  # the young worker's growth is not judged
    # A restarted worker that lives long enough is judged from five minutes after its restart.
    late = [reading(t, 33, port=8401, age=t - 60, rss=80) for t in range(60, 601, 30)]
    [worker] = memory(late, START, warmup_s=300)["workers"]
    assert worker["judged"] and worker["baseline_at_s"] == 360


def test_nothing_judged_is_neither_a_pass_nor_a_failure():
    readings = [reading(t) for t in range(0, 181, 30)]
    assert memory(readings, START, warmup_s=300)["ok"] is None
    assert leaks(readings, START, warmup_s=300, pool_max=20)["ok"] is None


def test_connections_may_grow_by_the_slack_and_no_more():
    slack = soak_rules.LEAK_SLACK
    steady = [reading(t, database=4 + (t // 30) % 2, redis=3) for t in range(0, 601, 30)]
    assert leaks(steady, START, warmup_s=300, pool_max=20)["ok"] is True
    grown = [reading(t, database=5 + slack if t > 540 else 5, redis=3) for t in range(0, 601, 30)]
    result = leaks(grown, START, warmup_s=300, pool_max=20)
    assert result["ok"] is True
    assert result["workers"][0]["database"] == {"warm": 5, "end": 5 + slack, "grew": slack}
    leaking = [reading(t, redis=3 + t // 60) for t in range(0, 601, 30)]  # a Redis connection a minute
    result = leaks(leaking, START, warmup_s=300, pool_max=20)
    assert result["ok"] is False and result["workers"][0]["leak"]
    assert result["workers"][0]["redis"] == {"warm": 8, "end": 13, "grew": 5}


def test_more_database_connections_than_the_pool_is_a_leak_even_before_the_warm_up_ends():
    readings = [reading(t, database=21 if t == 60 else 4) for t in range(0, 181, 30)]
    result = leaks(readings, START, warmup_s=300, pool_max=20)
    assert result["ok"] is False and result["workers"][0]["beyond_pool"] == 21
    assert leaks(readings, START, warmup_s=300, pool_max=0)["ok"] is None  # no pool, no such bound


# --- latencies while the games go on -----------------------------------------------------------------


def test_latencies_are_taken_as_their_pushes_come_and_the_rest_wait():
    sender, receiver = Bot(0, "http://127.0.0.1:1"), Bot(1, "http://127.0.0.1:1")
    sender.sent = [(10.0, 5, 10.01), (11.0, 7, 11.01), (12.0, 9, 12.01)]
    receiver.arrivals = [(5, 10.02), (8, 11.05)]
    expected, _ = latencies(sender, receiver)
    assert resolved(sender, receiver) == expected[:2]  # version 7 arrived within version 8's board
    assert sender.sent == [(12.0, 9, 12.01)]
    receiver.arrivals.append((9, 12.03))
    assert [round(ms, 1) for _, ms in resolved(sender, receiver)] == [30.0]
    assert sender.sent == [] and resolved(sender, receiver) == []
