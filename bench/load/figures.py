"""A level's figures: percentiles, the machine's speed, the verdicts and the printed table."""

from __future__ import annotations

import random
import sys
import time

from bench import stages


def machine_speed() -> float:
    """CPU milliseconds for a fixed piece of work (every show of 4,000 seeded deals, counted with
    the breakdown a board shows), the median of five: these machines differ from one day to the
    next by more than most changes gain, so each run says how quick its machine was."""
    from games.engine.cards import DECK
    from games.engine.scoring import score_hand

    rng = random.Random(2026)
    deals = [rng.sample(DECK, 5) for _ in range(4000)]
    times = []
    for _ in range(5):
        began = time.process_time()
        for *hand, starter in deals:
            shown = score_hand(hand, starter)
            _ = (shown.fifteens, shown.pairs, shown.runs, shown.flush, shown.nobs)
        times.append((time.process_time() - began) * 1000)
    return round(sorted(times)[2], 1)


def interpreter() -> str:
    """Which Python ran this (and the servers): the machine speed is timed in it, and on one machine
    Debian's build (profile-guided and link-time optimised) reads well under pyenv's
    (docs/performance.md)."""
    return f"Python {sys.version.split()[0]} at {sys.base_prefix}"


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "p99": None, "max": None, "n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {
        "p50": at(0.50), "p95": at(0.95), "p99": at(0.99), "max": round(ordered[-1], 1), "n": len(ordered),
    }


CORES = 2


def capacity(spent: dict[str, float], games: int, duration: float) -> dict[str, int | None]:
    """How many tables ``CORES`` cores would hold at the pace measured, were the servers alone on them:
    the cores' seconds over what one table cost a second, all in (workers, its database's backends
    and Redis: on one machine they share the cores) and the workers alone (the figure for a machine
    of daphne workers with PostgreSQL and Redis elsewhere). A ceiling: a machine run at full use
    queues its moves, so a site plans for less."""
    def tables(cpu: float) -> int | None:
        return int(CORES * games * duration / cpu) if cpu > 0 else None

    return {"all_in": tables(spent["servers"] + spent["database"] + spent["redis"]),
            "workers_only": tables(spent["servers"])}


def saturation(results: list[dict], p99_limit: float) -> str:
    for r in results:
        p99 = r["latency_ms"]["p99"]
        if r["errors"] or p99 is None or p99 > p99_limit:
            return (f"{r['games']} games (p99 {p99} ms, {r['errors']} errors, "
                    f"{r['moves_per_second']} moves/s)")
    return f"not reached up to {results[-1]['games']} games" if results else "-"


def per_second(sent_at: list[float], latencies: list[float], start: float) -> list[dict]:
    """The window second by second (moves sent in each, and their latency's p50, p95 and max):
    a tail that comes in bursts (a pause of one worker, work that arrives in waves) shows as bad
    seconds among good ones, where a tail of an overloaded machine is spread over them all."""
    seconds: dict[int, list[float]] = {}
    for sent, ms in zip(sent_at, latencies, strict=True):
        seconds.setdefault(int(sent - start), []).append(ms)
    out = []
    for t, values in sorted(seconds.items()):
        figures = percentiles(values)
        out.append({"second": t, "moves": len(values), **{k: figures[k] for k in ("p50", "p95", "max")}})
    return out


def over_echo(latency: dict, echo: dict) -> dict[str, float | None]:
    """How many times the echo each of the move's p50 and p99 is (the target: at most 5 at 50 games)."""
    return {q: round(latency[q] / echo[q], 1) if latency[q] is not None and echo[q] else None
            for q in ("p50", "p99")}


# The site's load targets on a 2-core machine: 200 games with no errors and p99 under the limit;
# 50 games within 5 times the echo.
TARGET_GAMES, ECHO_GAMES, ECHO_TIMES = 200, 50, 5.0


def targets(results: list[dict], p99_limit: float) -> list[str]:
    """A line for each of the load targets that this run measured: met or not, and by what."""
    lines = []
    for r in results:
        lat, ratio = r["latency_ms"], r.get("latency_over_echo") or {}
        if r["games"] == TARGET_GAMES:
            met = not r["errors"] and lat["p99"] is not None and lat["p99"] < p99_limit
            lines.append(f"{TARGET_GAMES} games with no errors and p99 under {p99_limit:.0f} ms: "
                         f"{'met' if met else 'not met'} (p99 {lat['p99']} ms, {r['errors']} errors)")
        if r["games"] == ECHO_GAMES:
            worst = max((v for v in ratio.values() if v is not None), default=None)
            met = worst is not None and worst <= ECHO_TIMES
            lines.append(f"{ECHO_GAMES} games within {ECHO_TIMES:g}x the echo: {'met' if met else 'not met'} "
                         f"({ratio.get('p50')}x at p50, {ratio.get('p99')}x at p99)")
    return lines


def print_table(results: list[dict], idle_echo: dict, out, *, by_second: bool = True) -> None:
    print(f"echo floor, idle: p50 {idle_echo['p50']} ms, p95 {idle_echo['p95']} ms, "
          f"p99 {idle_echo['p99']} ms", file=out)
    header = (f"{'games':>5} {'moves/s':>8} {'p50':>7} {'p95':>7} {'p99':>7} {'answer p50':>10}"
              f" {'echo p50':>9} {'echo p99':>9}"
              f" {'errors':>6} {'409s':>5} {'done':>5} {'cpu ms/move':>11} {'load':>5}")
    print(header, file=out)
    for r in results:
        lat, echo = r["latency_ms"], r["echo_latency_ms"]
        print(f"{r['games']:>5} {r['moves_per_second']:>8} {lat['p50']!s:>7} {lat['p95']!s:>7}"
              f" {lat['p99']!s:>7} {r['answer_ms']['p50']!s:>10} {echo['p50']!s:>9} {echo['p99']!s:>9}"
              f" {r['errors']:>6}"
              f" {r['stale_refusals']:>5} {r['games_finished']:>5} {r['server_cpu_ms_per_move']!s:>11}"
              f" {r['loadavg_1m'][1]:>5}", file=out)
        if r.get("pace") == "human" or r.get("idle_cpu_ms_per_table_minute"):
            print_capacity(r, out)
        if r["errors"]:
            print(f"      errors: {r['error_kinds']}  e.g. {r['error_samples'][:2]}", file=out)
        seconds = r.get("latency_by_second") if by_second else None
        for s in seconds or ():
            print(f"      second {s['second']:>3}: {s['moves']:>4} moves, latency p50 {s['p50']!s:>6} "
                  f"p95 {s['p95']!s:>7} max {s['max']!s:>7} ms", file=out)
        if by_second and r.get("stages_ms"):
            stages.print_breakdown(r["stages_ms"], out, r.get("collector_passes"))


def print_capacity(r: dict, out) -> None:
    """A level's CPU per move (all in and by process), an idle table's cost and the tables two cores hold."""
    print(f"      CPU per move: {r['all_in_cpu_ms_per_move']} ms all in (workers"
          f" {r['server_cpu_ms_per_move']}, PostgreSQL {r['database_cpu_ms_per_move']}, Redis"
          f" {r['redis_cpu_ms_per_move']}); the bots {r['bots_cpu_ms_per_move']} ms beside;"
          f" {r['moves_per_table_second']} moves a table a second", file=out)
    idle = r.get("idle_cpu_ms_per_table_minute")
    if idle:
        print(f"      an idle open table: {idle['servers']} ms of workers' CPU a minute (PostgreSQL"
              f" {idle['database']}, Redis {idle['redis']}; bots {idle['bots']}); workers' memory"
              f" {r['rss_mb_per_table']} MB a table ({r['rss_mb']} MB in all)"
              + (f" [not idle: {r['idle_note']}]" if r.get("idle_note") else ""), file=out)
    held = r["tables_on_two_cores"]
    print(f"      tables two cores hold at this pace: {held['all_in']} all in, {held['workers_only']}"
          " with PostgreSQL and Redis elsewhere", file=out)
