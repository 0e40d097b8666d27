"""One log line when Redis (the channel layer, or the cache) becomes unreachable and one when it
answers again, in place of a traceback for every message or request that fails meanwhile.

With Redis away each process had channels-redis' receive task log a traceback every second, and
each push, heartbeat, socket, session read and presence read that touched Redis one more. Here a
logging filter (``OutageFilter``, set on those loggers in ``settings.LOGGING``, one for the layer and
one for the cache) lets through the first record whose exception says the server could not be
reached, rewritten as "channel layer unreachable" (or "cache unreachable") without its traceback, and
drops the others; the first use that works afterwards (``layer.delivered()``, ``cache.delivered()``,
called by the site's send and read paths and the process's layer watch) logs "channel layer back"
with how long it was away and how many records were dropped. A record whose exception is anything
else passes as it was.

What it relies on: channels-redis and daphne log these failures with the exception attached
(``exc_info``), on the loggers named in settings (``tests/infra/test_outages.py`` drives the filter
through the site's own send path; ``tests/ops/test_layer_outage_boards.py`` reads a real outage's log).
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("games.infra.outages")

try:  # the Redis client is there when the layer is channels-redis or the cache is Redis
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    UNREACHABLE: tuple[type[BaseException], ...] = (ConnectionError, TimeoutError, RedisConnectionError,
                                                    RedisTimeoutError)
except ImportError:  # pragma: no cover - without Redis nothing fails this way
    UNREACHABLE = (ConnectionError, TimeoutError)


def unreachable(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says a server could not be reached."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, UNREACHABLE):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _reason(exc: BaseException | None) -> str:
    return f"{type(exc).__name__}: {exc}" if exc is not None else "no answer"


class Outage:
    """Whether this process last found ``what`` away, since when, and what it did not log."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.lock = threading.Lock()
        self.down_since: float | None = None
        self.dropped = 0

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def starts(self) -> bool:
        """A failure: True for the first of an outage (to be logged), False for the rest."""
        with self.lock:
            if self.down_since is None:
                self.down_since = time.monotonic()
                self.dropped = 0
                return True
            self.dropped += 1
            return False

    def failed(self, doing: str, exc: BaseException | None = None) -> None:
        """The site's own code found it away while ``doing``: logged only if that starts an outage."""
        if self.starts():
            log.warning("%s unreachable (%s: %s)", self.what, doing, _reason(exc))

    def delivered(self) -> None:
        """A use of it worked: ends an outage, if there was one."""
        if self.down_since is None:  # the common case: no lock for a use that went as usual
            return
        with self.lock:
            if self.down_since is None:
                return
            away, dropped = time.monotonic() - self.down_since, self.dropped
            self.down_since = None
        log.warning("%s back after %.1f s (%d failures meanwhile not logged)", self.what, away, dropped)


layer = Outage("channel layer")
cache = Outage("cache")
OUTAGES = {"layer": layer, "cache": cache}


class OutageFilter(logging.Filter):
    """Lets one record of an outage of ``of`` ("layer" or "cache") through, as "… unreachable", and
    drops the others; any other record passes untouched."""

    def __init__(self, of: str) -> None:
        super().__init__()
        self.outage = OUTAGES[of]

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not unreachable(exc):
            return True
        if not self.outage.starts():
            return False
        said = record.getMessage()
        record.msg, record.args = "%s unreachable (%s; %s)", (self.outage.what, said, _reason(exc))
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
