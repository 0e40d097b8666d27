"""``bench.load --stages``: where a move's time goes, from the POST to the opponent's board.

The servers log a timestamp at each stage of every move (``games/timeline.py``, on with
``TIMELINE_LOG=1``); the bots know when they wrote each POST, when its answer came and when the
opponent's socket had the new board. Both clocks are this machine's wall clock, so the two line up.
A move counts when every mark of its way was found (the opponent's socket drawing that very
version: a board that carried two moves at once is left out).
"""

from __future__ import annotations

import re
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

MARK = re.compile(r"games\.timeline stage=(\w+) (.*?) ?at=([\d.]+)")


def read_marks(path: Path, offset: int = 0) -> dict[str, dict]:
    """The servers' marks from ``offset`` on: ``http`` and ``view`` as {game: [times]}, the others
    as {(game, version): time} (the first, for a version drawn twice)."""
    by_game: dict[str, dict] = {"http": {}, "view": {}}
    by_move: dict[str, dict] = {}
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
            elif fields.get("version", "None") != "None":
                by_move.setdefault(stage, {}).setdefault((int(fields["game"]), int(fields["version"])), at)
    return {**by_game, **by_move}


def _last_between(times: list[float], low: float, high: float) -> float | None:
    inside = [t for t in times if low <= t <= high]
    return inside[-1] if inside else None


def breakdown(moves: list[tuple[int, int, float, float, float | None]], marks: dict[str, dict]) -> dict:
    """``moves``: (game, version made, POST written, answer read, opponent's board read), wall ms.
    Each stage's p50, p90 and p99 in ms, over the moves whose every mark was found."""
    durations: dict[str, list[float]] = {name: [] for name, _, _ in STAGES}
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
    return {"moves": len(durations["total"]),
            **{name: _percentiles(values) for name, values in durations.items()}}


def _percentiles(values: list[float]) -> dict[str, float | None]:
    ordered = sorted(values)
    if not ordered:
        return {"p50": None, "p90": None, "p99": None}
    return {f"p{q}": round(ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))], 2)
            for q in (50, 90, 99)}


def print_breakdown(figures: dict, out) -> None:
    print(f"      stages of {figures['moves']} moves (ms)      p50     p90     p99", file=out)
    for name, _, _ in STAGES:
        row = figures[name]
        print(f"      {name:<28} {row['p50']!s:>7} {row['p90']!s:>7} {row['p99']!s:>7}", file=out)
