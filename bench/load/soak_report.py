"""The soak's printed lines: one a minute, and the summary with each check's verdict."""

from __future__ import annotations

from typing import TextIO


def worker_text(port: int, worker: dict | None) -> str:
    if worker is None:
        return f"{port}: no reading"
    return (f"{port} pid {worker['pid']}: {worker['rss_mb']:.1f} MB, db {worker['database']},"
            f" redis {worker['redis']}, clients {worker['clients']}")


def minute_line(row: dict, ports: list[int]) -> str:
    """``minute 3: 18.2 moves/s, latency p50 41.0 p99 230.5 ms, errors 4 in restarts + 0 other |
    8400 pid 1234: 85.2 MB, db 4, redis 3, clients 41 | 8401 pid 1301: …``"""
    latency = row["latency_ms"]
    return (f"minute {row['minute']:>3}: {row['moves_per_second']:>5} moves/s,"
            f" latency p50 {latency['p50']!s:>6} p99 {latency['p99']!s:>7} ms,"
            f" errors {row['errors_restart']} in restarts"
            f" + {row['errors_other']} other | "
            + " | ".join(worker_text(port, row["workers"].get(port)) for port in ports))


def _kinds(kinds: dict[str, int]) -> str:
    return " " + ", ".join(f"{kind} {n}" for kind, n in kinds.items()) if kinds else ""


def _verdict(ok: bool | None) -> str:
    return {True: "passed", False: "FAILED", None: "not judged"}[ok]


def print_summary(r: dict, out: TextIO) -> None:
    lat = r["latency_ms"]
    print(f"\nsoak summary: {r['games']} games for {r['soak_minutes']} min on {r['workers']} workers;"
          f" machine speed {r.get('machine_speed_ms')} ms", file=out)
    print(f"moves: {r['moves']} accepted ({r['moves_per_second']}/s),"
          f" latency p50 {lat['p50']} p95 {lat['p95']} p99 {lat['p99']} max {lat['max']} ms;"
          f" {r['games_finished']} games finished,"
          f" {r['stale_refusals']} stale refusals", file=out)
    for kill in r["kills"]:
        back = f"back in {kill['back_s']} s (pid {kill['new_pid']})" if kill["new_pid"] else "never back"
        if kill["forced_after_s"]:
            back = f"still running {kill['forced_after_s']:g} s later, so SIGKILL; {back}"
        print(f"kill at {kill['at_s']} s: {kill['signal']} to {kill['port']} (pid {kill['old_pid']}), {back}",
              file=out)
    e = r["errors"]
    print(f"errors: {e['restart']} during restarts' reconnects (from a kill to {r['restart_grace_s']:g} s"
          f" after the new worker answered){_kinds(e['restart_kinds'])}; {e['other']} other"
          f"{_kinds(e['other_kinds'])}", file=out)
    if e["other"]:
        print(f"  e.g. {e['samples'][:3]}", file=out)
    m = r["move_log"]
    print(f"move log: {m['moves_logged']} moves in {m['games']} games,"
          f" {m['accepted']} accepted by the server: {m['lost']} lost, {m['duplicated']} duplicated,"
          f" {m['unaccounted']} unaccounted for,"
          f" {m['games_with_gaps']} games with gaps; {m['in_doubt']} answers lost, {m['in_doubt_made']}"
          " of those moves made", file=out)
    for sample in m["samples"][:5]:
        print(f"  {sample}", file=out)
    mem = r["memory"]
    print(f"memory (flat: the last reading within {mem['tolerance_pct']}% of the reading at the end of the"
          f" process's {r['warmup_minutes']:g}-minute warm-up):", file=out)
    for w in mem["workers"]:
        if w["judged"]:
            print(f"  {w['port']} pid {w['pid']}: {w['baseline_mb']} MB at {w['baseline_at_s']} s,"
                  f" {w['last_mb']} MB at the end ({w['change_pct']:+}%):"
                  f" {'flat' if w['flat'] else 'NOT FLAT'}", file=out)
        else:
            print(f"  {w['port']} pid {w['pid']}: {w['last_mb']} MB last, not judged ({w['why_not']})",
                  file=out)
    c = r["connections"]
    pool = f"; database never above the pool's {c['pool_max']}" if c["pool_max"] else ""
    print(f"connections (no leak: database and Redis in the last minute at most {c['slack']} above the"
          f" warm-up's last minute{pool}):", file=out)
    for w in c["workers"]:
        grown = " ".join(f"{k} {w[k]['warm']}->{w[k]['end']}" for k in ("database", "redis") if k in w)
        status = "LEAK" if w["leak"] else ("no leak" if w["judged"] else f"not judged ({w['why_not']})")
        extra = f", {w['beyond_pool']} database connections beyond the pool" if w.get("beyond_pool") else ""
        print(f"  {w['port']} pid {w['pid']}: {grown or '-'}{extra}: {status}", file=out)
    checks = ", ".join(f"{name} {_verdict(ok)}" for name, ok in r["checks"].items())
    print(f"checks: {checks}", file=out)
    print(f"soak {'PASSED' if r['passed'] else 'FAILED'}", file=out, flush=True)
