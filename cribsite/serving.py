"""Settings of a serving process that are not Django settings: the garbage collector, and Twisted's
form parsing under daphne. ``cribsite.asgi`` applies them when a worker imports the application."""

from __future__ import annotations

import gc

# A first generation of 20,000 container objects (Python's default, 700, ran a collection every few
# requests) and older generations collected every 20 younger ones (Python: 10). bench.load at 200
# games measured these better than 100,000 / 50 / 100, whose rarer collections took longer each.
GC_THRESHOLDS = (20_000, 20, 20)


def tune_process() -> None:
    tune_garbage_collector()
    skip_twisted_form_parsing()


def tune_garbage_collector() -> None:
    """Freeze what start-up built and collect less often.

    A worker's heap is mostly what start-up made (Django, the URL resolvers, the templates, the
    engine's tables) and it lives as long as the process: frozen, no collection walks it again.
    bench.load at 200 games, before: full collections took 0.2-0.3 s each (a pause every player
    waiting on that worker felt) and the collector ~14% of a worker's CPU; with this alone ~7%, and
    with the hot path's reference cycles gone too (README, Memory) about 1%."""
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
