"""Where a move's time goes: a timestamp at each stage of its way, logged only when asked for.

``bench.load --stages`` starts the servers with ``TIMELINE_LOG=1`` and lines the marks up with its
bots' own clocks (the POST sent, the answer and the opponent's board received), one move at a time,
to print how long each stage took. Off (the default), a mark costs one check of the logger's level.

The marks, in the order a move passes them (``http`` and ``view`` on the mover's worker, then
``commit`` there, then the rest on the worker of the opponent's socket):

- ``http``: the request reached the application (after daphne read it);
- ``view``: the middleware is done and the view starts;
- ``commit``: the move is committed and its push handed to the channel layer;
- ``answered``: the mover's answer is drawn;
- ``received``: the opponent's socket got the push (only a socket that will draw it);
- ``drawn``: that socket's board is drawn;
- ``sent``: and written to the socket.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger("games.timeline")


def mark(stage: str, **fields: object) -> None:
    if log.isEnabledFor(logging.DEBUG):
        pairs = " ".join(f"{k}={v}" for k, v in fields.items())
        log.debug("stage=%s %s at=%.3f", stage, pairs, time.time() * 1000)


def watch_collector() -> None:
    """With the marks on, log each pass of the garbage collector too (``stage=gc``): a pass stops
    every thread of the worker, so a move that waited for one shows it."""
    import gc

    if not log.isEnabledFor(logging.DEBUG) or _on_collect in gc.callbacks:
        return
    gc.callbacks.append(_on_collect)


_started: list[float] = [0.0]


def _on_collect(phase: str, info: dict) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    took = (time.perf_counter() - _started[0]) * 1000
    log.debug("stage=gc generation=%s ms=%.2f collected=%s at=%.3f",
              info.get("generation"), took, info.get("collected"), time.time() * 1000)
