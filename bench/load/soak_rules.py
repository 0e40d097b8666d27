"""The soak's figures and verdicts, from what the bots recorded and the workers' ``/proc`` readings.

Pure functions (no servers): the minute-by-minute figures, the move-log check, and the rules for
memory and connections. Times are the bots' ``perf_counter()`` seconds; ``start`` is when the
soak's measured run began.

Errors. An error is *during a restart's reconnect* when it happened from a kill until
``RESTART_GRACE_SECONDS`` after the killed worker answered ``/health/`` again (or, if it never did,
until ``RESTART_WAIT_SECONDS + RESTART_GRACE_SECONDS`` after the kill): the grace covers the bots'
reconnect backoff (at most 8 s between tries) and a move or two after it. Every other error is
*other*, and a clean soak has none.

Memory and connections, per worker *process* (a restarted worker is a new process on the same port,
which starts small again: comparing by port would read each restart as memory freed). A process's
*baseline* is its first reading once both it and the soak have run ``warm-up`` minutes (5 by
default): for a worker started with the run, minute 5 of the soak; for a restarted one, five minutes
after its restart. A process is judged when it has a reading at least ``MIN_JUDGED_SECONDS`` after
its baseline; the soak kills only the last worker, so the first one lives through the whole run and
is always judged once the run is a minute longer than the warm-up. A process killed sooner is
reported but not judged.

- memory is flat when the process's last resident memory is within ``MEMORY_TOLERANCE`` (10%) of its
  baseline, either way;
- a connection leak is database or Redis connections that grew: the most seen in the process's last
  minute of readings above the most seen in the minute up to its baseline by more than
  ``LEAK_SLACK`` (the pool and the layer open and close a few as the load moves); and, with a pool,
  ever more database connections than ``DB_POOL_MAX`` (connections outside the pool).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

from bench.load.figures import percentiles
from bench.load.procfs import Reading

RESTART_WAIT_SECONDS = 60.0  # a killed worker that does not answer again by then is an error
RESTART_GRACE_SECONDS = 15.0
MEMORY_TOLERANCE = 0.10
LEAK_SLACK = 2
MIN_JUDGED_SECONDS = 60.0
MINUTE = 60.0


@dataclass(frozen=True)
class Kill:
    """One worker killed: when, which, how, and how many seconds after the kill its successor
    answered (None: not yet, or never). ``forced_after_s``: a worker sent SIGTERM that was still
    running that many seconds later, and was sent SIGKILL then, as a process manager would."""

    at: float
    port: int
    signal: str
    old_pid: int
    new_pid: int | None
    back_s: float | None
    forced_after_s: float | None = None


def restart_windows(kills: list[Kill]) -> list[tuple[float, float]]:
    return [(k.at, k.at + (RESTART_WAIT_SECONDS if k.back_s is None else k.back_s) + RESTART_GRACE_SECONDS)
            for k in kills]


def during_restart(t: float, windows: list[tuple[float, float]]) -> bool:
    return any(low <= t <= high for low, high in windows)


def split_errors(errors: list[tuple[float, str]], windows: list[tuple[float, float]]) -> dict:
    """How many errors came during restarts' reconnects and how many did not, each by kind."""
    restart, other = Counter(), Counter()
    for t, kind in errors:
        (restart if during_restart(t, windows) else other)[kind] += 1
    return {"restart": sum(restart.values()), "other": sum(other.values()),
            "restart_kinds": dict(restart), "other_kinds": dict(other)}


def minute_of(t: float, start: float, count: int) -> int:
    """The minute (0-based) ``t`` falls in, the set-up counted in the first and the wind-down in the last."""
    return min(count - 1, max(0, int((t - start) // MINUTE)))


def minutes(start: float, count: int, accepted: list[float], latencies: list[tuple[float, float]],
            errors: list[tuple[float, str]], kills: list[Kill], readings: list[Reading]) -> list[dict]:
    """The soak minute by minute. ``accepted``: when each accepted move was sent; ``latencies``:
    (sent, ms) for each of them whose push came. A minute's moves and latencies are those sent in it
    (set-up and wind-down moves are left out); its errors those that happened in it; its workers the
    last reading of each port in it; its kills those made in it."""
    rows = [{"minute": m + 1, "moves": 0, "latency": [], "errors": [], "kills": [], "workers": {}}
            for m in range(count)]
    end = start + count * MINUTE
    for t in accepted:
        if start <= t < end:
            rows[minute_of(t, start, count)]["moves"] += 1
    for t, ms in latencies:
        if start <= t < end:
            rows[minute_of(t, start, count)]["latency"].append(ms)
    for t, kind in errors:
        rows[minute_of(t, start, count)]["errors"].append((t, kind))
    for kill in kills:
        rows[minute_of(kill.at, start, count)]["kills"].append(
            {"at_s": round(kill.at - start, 1), "port": kill.port, "signal": kill.signal,
             "back_s": kill.back_s})
    for reading in sorted(readings, key=lambda r: r.at):
        if start <= reading.at <= end:
            rows[minute_of(reading.at, start, count)]["workers"][reading.port] = {
                "pid": reading.pid, "rss_mb": reading.rss_mb, "database": reading.database,
                "redis": reading.redis, "clients": reading.clients}
    windows = restart_windows(kills)
    for row in rows:
        figures = percentiles(row.pop("latency"))
        split = split_errors(row.pop("errors"), windows)
        row.update(moves_per_second=round(row["moves"] / MINUTE, 1),
                   latency_ms={"p50": figures["p50"], "p99": figures["p99"], "n": figures["n"]},
                   errors_restart=split["restart"], errors_other=split["other"])
    return rows


def check_moves(games: dict[int, dict], accepted: list[tuple], in_doubt: list[tuple]) -> dict:
    """The bots' records against the database's move log.

    ``games``: {game: {"version", "move_count", "moves": [(seq, player, action type)]}} as the
    database has them; ``accepted``: (sent, game, version made, player, type) for each move the server
    answered with its new board; ``in_doubt``: (sent, game, version sent from, player, type) for each
    move whose answer never came (a worker killed under it), which may or may not have been made.

    During play only moves move a game's version on (these games have no rematch offers, timers or
    tournaments), so the move of seq ``s`` made version ``offset + s``, where ``offset`` is the game's
    version less its move count. The check: each game's seqs are 1..n with no gap and no repeat;
    every accepted move is the row at its seq, by the same player and of the same type (else
    *lost*), and no version was accepted twice (*duplicated*); every row is an accepted move or a
    move in doubt (at the seq after the one it was sent from, or the one after that when the other
    player acted alongside), else it is *unaccounted* for: a move made that nobody was told of."""
    rows: dict[int, dict[int, list[tuple[str, str]]]] = {}
    gaps = []
    for game_id, game in games.items():
        seqs = sorted(seq for seq, _, _ in game["moves"])
        if seqs != list(range(1, len(seqs) + 1)):
            gaps.append(f"game {game_id}: seqs {seqs[:5]}… ({len(seqs)} rows)")
        for seq, player, kind in game["moves"]:
            rows.setdefault(game_id, {}).setdefault(seq, []).append((player, kind))

    def offset(game_id: int) -> int:
        return games[game_id]["version"] - games[game_id]["move_count"]

    lost, duplicated, unaccounted = [], [], []
    explained: set[tuple[int, int]] = set()
    seen: set[tuple[int, int]] = set()
    for _, game_id, version, player, kind in accepted:
        if (game_id, version) in seen:
            duplicated.append(f"game {game_id} version {version} accepted twice")
            continue
        seen.add((game_id, version))
        seq = version - offset(game_id) if game_id in games else None
        if seq is None or (player, kind) not in rows.get(game_id, {}).get(seq, []):
            lost.append(f"game {game_id} version {version}: {player} {kind} not in the log")
        else:
            explained.add((game_id, seq))
    committed = 0
    for _, game_id, version, player, kind in in_doubt:
        if game_id not in games:
            continue
        after = version - offset(game_id) + 1
        for seq in (after, after + 1):
            if (game_id, seq) not in explained and (player, kind) in rows.get(game_id, {}).get(seq, []):
                explained.add((game_id, seq))
                committed += 1
                break
    for game_id, by_seq in sorted(rows.items()):
        for seq, made in sorted(by_seq.items()):
            if len(made) > 1:
                duplicated.append(f"game {game_id} seq {seq} logged {len(made)} times")
            if (game_id, seq) not in explained:
                unaccounted.append(f"game {game_id} seq {seq}: {made[0][0]} {made[0][1]} never accepted")
    return {
        "games": len(games), "moves_logged": sum(len(g["moves"]) for g in games.values()),
        "accepted": len(accepted), "lost": len(lost), "duplicated": len(duplicated),
        "unaccounted": len(unaccounted), "games_with_gaps": len(gaps),
        "in_doubt": len(in_doubt), "in_doubt_made": committed,
        "ok": not (lost or duplicated or unaccounted or gaps),
        "samples": (gaps + lost + duplicated + unaccounted)[:10],
    }


def baselines(readings: list[Reading], start: float, warmup_s: float) -> dict[int, Reading]:
    """Each process's baseline: its first reading once both it and the soak had run ``warmup_s``."""
    out: dict[int, Reading] = {}
    for r in sorted(readings, key=lambda r: r.at):
        if r.pid not in out and min(r.age_s, r.at - start) >= warmup_s:
            out[r.pid] = r
    return out


def _processes(readings: list[Reading], start: float, warmup_s: float):
    """(pid, baseline or None, its readings in order, why it is not judged or "") for each process."""
    by_pid: dict[int, list[Reading]] = {}
    for r in sorted(readings, key=lambda r: r.at):
        by_pid.setdefault(r.pid, []).append(r)
    bases = baselines(readings, start, warmup_s)
    for pid, own in by_pid.items():
        base = bases.get(pid)
        if base is None:
            why = f"ran {own[-1].age_s / 60:.1f} min, never past its {warmup_s / 60:g}-minute warm-up"
        elif own[-1].at - base.at < MIN_JUDGED_SECONDS:
            why = f"under {MIN_JUDGED_SECONDS:.0f} s of readings after its warm-up"
        else:
            why = ""
        yield pid, base, own, why


def _verdict(judged: list[bool]) -> bool | None:
    return all(judged) if judged else None  # None: nothing could be judged


def memory(readings: list[Reading], start: float, warmup_s: float) -> dict:
    """Each process's resident memory at its baseline and at its last reading; flat or not."""
    workers, judged = [], []
    for pid, base, own, why in _processes(readings, start, warmup_s):
        last = own[-1]
        row = {"port": last.port, "pid": pid, "last_mb": last.rss_mb, "judged": not why, "why_not": why}
        if base is not None:
            change = (last.rss_mb - base.rss_mb) / base.rss_mb if base.rss_mb else 0.0
            row.update(baseline_mb=base.rss_mb, baseline_at_s=round(base.at - start, 1),
                       change_pct=round(100 * change, 1))
            if not why:
                row["flat"] = abs(change) <= MEMORY_TOLERANCE
                judged.append(row["flat"])
        workers.append(row)
    return {"tolerance_pct": round(100 * MEMORY_TOLERANCE), "workers": workers, "ok": _verdict(judged)}


def leaks(readings: list[Reading], start: float, warmup_s: float, pool_max: int) -> dict:
    """Each process's database and Redis connections: the most in the minute up to its baseline
    against the most in its last minute of readings; and the database's most against the pool."""
    workers, judged = [], []
    for pid, base, own, why in _processes(readings, start, warmup_s):
        last = own[-1]
        row: dict = {"port": last.port, "pid": pid, "judged": not why, "why_not": why}
        most_db = max(r.database for r in own)
        if pool_max > 0 and most_db > pool_max:  # a leak whatever the warm-up: judged at once
            row["beyond_pool"] = most_db
            judged.append(False)
        if base is not None:
            warm = [r for r in own if base.at - MINUTE < r.at <= base.at]
            end = [r for r in own if last.at - MINUTE < r.at <= last.at]
            for kind in ("database", "redis"):
                before, after = max(getattr(r, kind) for r in warm), max(getattr(r, kind) for r in end)
                row[kind] = {"warm": before, "end": after, "grew": after - before}
                if not why:
                    judged.append(after - before <= LEAK_SLACK)
        row["leak"] = bool(row.get("beyond_pool")) or (
            not why and any(row[k]["grew"] > LEAK_SLACK for k in ("database", "redis")))
        workers.append(row)
    return {"slack": LEAK_SLACK, "pool_max": pool_max, "workers": workers, "ok": _verdict(judged)}


def kills_as_dicts(kills: list[Kill], start: float) -> list[dict]:
    """The kills for ``--json``: ``at_s`` is seconds from the start, as in each minute's ``kills``."""
    return [{"at_s": round(k.at - start, 1), **{k_: v for k_, v in asdict(k).items() if k_ != "at"}}
            for k in kills]
