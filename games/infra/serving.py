"""Settings of a serving process that are not Django settings: the garbage collector, and Twisted's
form parsing under daphne. ``cribsite.asgi`` applies them when a worker imports the application.

Without these and ``games.infra.cache``, ``bench.load`` at 50 games took a fifth more CPU per move
and doubled its median latency (docs/performance.md). What it relies on in daphne/Twisted:
daphne builds each request from ``daphne.http_protocol.WebRequest``, a ``twisted.web.http.Request``
that takes ``parsePOSTFormSubmission``; ``tests/ops/test_serving_process.py`` checks both settings
in a started worker."""

from __future__ import annotations

import gc

# The collector's pauses are a worker's pauses: every request and push on it waits. What a worker
# keeps for seconds or minutes (its sockets' tasks and contexts, the boards' caches) is young when
# each collection finds it, so a pass costs about 1 us for each object made since the last one.
# bench.load at 200 games, timed with gc.callbacks: with a first generation of 20,000 (against
# Python's 700 and its collection every few requests) each young pass stopped a
# worker for 17-26 ms (up to 57) and each middle one for 130-155 ms; with 5,000 they take 3.5 ms
# (up to 16) and 32 ms (up to 64), for about the same CPU in all (1.8 against 1.5 s in a 60 s
# level). The third is Python's own: a full collection after ten middle ones. A closed socket
# leaves its daphne, Twisted and autobahn objects (some 500, tens of kilobytes) in reference
# cycles that only a full collection frees, and a worker closes dozens a minute as games end:
# waiting for a hundred middle passes let them pile up for half an hour at 100 games
# (bench.load --soak).
GC_THRESHOLDS = (5_000, 20, 10)


def tune_process() -> None:
    from games.infra.timeline import watch_collector

    tune_garbage_collector()
    skip_twisted_form_parsing()
    watch_collector()


def tune_garbage_collector() -> None:
    """Freeze what start-up built and set the thresholds above.

    A worker's heap is mostly what start-up made (Django, the URL resolvers, the templates, the
    engine's tables) and it lives as long as the process: frozen, no collection walks it again.
    bench.load at 200 games, before: full collections took 0.2-0.3 s each (a pause every player
    waiting on that worker felt) and the collector ~14% of a worker's CPU; with this alone ~7%, and
    with the hot path's reference cycles gone too (tests collect with ``gc.DEBUG_SAVEALL`` around a
    move) about 1%."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def skip_twisted_form_parsing() -> None:
    """Twisted parses every POST body into ``request.args`` for its own resources; daphne never
    reads them (it hands the raw body to the application, and Django parses it). The parse built
    a new header class per request in the ``email`` package: 2% of a worker's CPU, and a reference
    cycle per request for the garbage collector. daphne builds each request from its module's
    ``WebRequest``, so a subclass there that asks Twisted not to parse is all it takes."""
    from daphne import http_protocol

    if getattr(http_protocol.WebRequest, "parses_forms", True) is False:
        return

    class WebRequest(http_protocol.WebRequest):
        parses_forms = False

        def __init__(self, *args, **kwargs) -> None:
            kwargs["parsePOSTFormSubmission"] = False
            super().__init__(*args, **kwargs)

    http_protocol.WebRequest = WebRequest
