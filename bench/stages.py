"""``bench.load --stages``: where a move's time goes, from the POST to the opponent's board.

The servers log a timestamp at each stage of every move (``games/infra/timeline.py``, on with
``TIMELINE_LOG=1``); the bots know when they wrote each POST, when its answer came and when the
opponent's socket had the new board. Both clocks are this machine's wall clock, so the two line up.
A move counts when every mark of its way was found (the opponent's socket drawing that very
version: a board that carried two moves at once is left out).

A tail is read from two more things: each stage's mean over the slowest 1% of moves (which stages a
slow move is slow in), the slowest moves themselves with their wall-clock times (whether they were
slow together, one stall, or each on its own), and the servers' collector passes (``stage=gc``).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

# (name, from, to): consecutive stages add up to the move's latency; "answer drawn" runs alongside.
STAGES = (
    ("request in", "post", "http"),  # the bot writes its POST; daphne reads it
    ("middleware", "http", "view"),  # a thread for it; sessions, CSRF, the user
    ("move", "view", "commit"),  # rate limit, lock, engine, write, commit
    ("push on its way", "commit", "received"),  # the channel layer; the other worker's loop
    ("board drawn", "received", "drawn"),  # a socket thread; the game read; the board drawn
    ("board written", "drawn", "sent"),  # the socket's write
    ("board read", "sent", "push"),  # daphne sends it; the bot reads it
    ("total", "post", "push"),
    ("answer drawn", "commit", "answered"),  # the mover's own board, alongside the push
    ("answer out", "answered", "answer"),  # back through daphne to the mover
)
WAY = tuple(name for name, _, _ in STAGES[:7])  # the stages that add up to the total

MARK = re.compile(r"games\.timeline stage=(\w+) (.*?) ?at=([\d.]+)")


def read_marks(path: Path, offset: int = 0) -> dict[str, dict]:
    """The servers' marks from ``offset`` on: ``http`` and ``view`` as {game: [times]}, the others
    as {(game, version): time} (the first, for a version drawn twice)."""
    by_game: dict[str, dict] = {"http": {}, "view": {}}
    by_move: dict[str, dict] = {}
    passes: list[tuple[float, int, float]] = []  # the collector's: (ended at, generation, ms)
    with path.open("rb") as log:
        log.seek(offset)
        for raw in log:
            if b"games.timeline" not in raw:
                continue
            found = MARK.search(raw.decode("utf-8", "replace"))
            if not found:
                continue
            stage, at = found.group(1), float(found.group(3))
            fields = dict(f.split("=", 1) for f in found.group(2).split())
            if stage == "http":
                path_game = re.fullmatch(r"/games/(\d+)/act/", fields.get("path", ""))
                if path_game:
                    by_game["http"].setdefault(int(path_game.group(1)), []).append(at)
            elif stage == "view":
                by_game["view"].setdefault(int(fields["game"]), []).append(at)
            elif stage == "gc":
                passes.append((at, int(fields["generation"]), float(fields["ms"])))
            elif fields.get("version", "None") != "None":
                by_move.setdefault(stage, {}).setdefault((int(fields["game"]), int(fields["version"])), at)
    return {**by_game, **by_move, "gc": passes}


def _last_between(times: list[float], low: float, high: float) -> float | None:
    inside = [t for t in times if low <= t <= high]
    return inside[-1] if inside else None


def breakdown(moves: list[tuple[int, int, float, float, float | None]], marks: dict[str, dict]) -> dict:
    """``moves``: (game, version made, POST written, answer read, opponent's board read), wall ms.
    Each stage's p50, p90 and p99 in ms, over the moves whose every mark was found, and its mean
    over the slowest 1% of them (``slowest``); and the ten slowest moves (``slowest_moves``)."""
    durations: dict[str, list[float]] = {name: [] for name, _, _ in STAGES}
    found: list[tuple[int, float]] = []  # (game, POST written) of each move in ``durations``
    for game, version, posted, answer, pushed in moves:
        if pushed is None:
            continue
        at = {"post": posted, "push": pushed, "answer": answer}
        for stage in ("commit", "answered", "received", "drawn", "sent"):
            at[stage] = marks.get(stage, {}).get((game, version))
        if at["commit"] is None:
            continue
        at["http"] = _last_between(marks["http"].get(game, []), posted - 1, at["commit"])
        at["view"] = _last_between(marks["view"].get(game, []), posted - 1, at["commit"])
        if any(v is None for v in at.values()):
            continue
        for name, start, end in STAGES:
            durations[name].append(at[end] - at[start])
        found.append((game, posted))
    figures = {name: _percentiles(values) for name, values in durations.items()}
    totals = durations["total"]
    by_time = sorted(range(len(totals)), key=totals.__getitem__, reverse=True)
    tail = by_time[: max(1, len(totals) // 100)] if totals else []
    for name, values in durations.items():
        figures[name]["slowest"] = round(sum(values[i] for i in tail) / len(tail), 2) if tail else None
    slowest_moves = [{"game": found[i][0], "posted_at": round(found[i][1] / 1000, 3),
                      **{name: round(values[i], 2) for name, values in durations.items()}}
                     for i in by_time[:10]]
    return {"moves": len(totals), **figures, "slowest_moves": slowest_moves}


def collector(passes: list[tuple[float, int, float]], start: float, end: float) -> dict[str, dict]:
    """The servers' collector passes that ended in [start, end) (wall ms), per generation: how
    many, and the median and longest pause in ms. A pass stops every thread of its worker."""
    out = {}
    for generation, name in enumerate(("young", "middle", "full")):
        pauses = sorted(ms for at, g, ms in passes if g == generation and start <= at < end)
        out[name] = {"passes": len(pauses), "p50": round(pauses[len(pauses) // 2], 1) if pauses else None,
                     "max": round(pauses[-1], 1) if pauses else None}
    return out


def _percentiles(values: list[float]) -> dict[str, float | None]:
    ordered = sorted(values)
    if not ordered:
        return {"p50": None, "p90": None, "p99": None}
    return {f"p{q}": round(ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))], 2)
            for q in (50, 90, 99)}


def print_breakdown(figures: dict, out, passes: dict | None = None) -> None:
    print(f"      stages of {figures['moves']} moves (ms)      p50     p90     p99  slowest 1%", file=out)
    for name, _, _ in STAGES:
        row = figures[name]
        print(f"      {name:<28} {row['p50']!s:>7} {row['p90']!s:>7} {row['p99']!s:>7}"
              f" {row['slowest']!s:>11}", file=out)
    for move in figures["slowest_moves"][:5]:
        worst = max(WAY, key=move.__getitem__)
        at = move["posted_at"]
        posted = time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at % 1 * 1000):03d}"
        print(f"      slow move: game {move['game']} posted {posted}, {move['total']} ms,"
              f" {move[worst]} of them in {worst}", file=out)
    if passes:
        each = (f"{name} {p['passes']} (p50 {p['p50']}, max {p['max']} ms)" for name, p in passes.items())
        print("      collector passes on the workers: " + ", ".join(each), file=out)
