"""Rate limits, counted in Django's cache (Redis when ``REDIS_URL`` is set, so every process shares them).

Two limits, each set in ``settings`` (and from the environment):

- ``RATE_LIMIT_MOVES`` (default ``600/m`` per user): generous. A quick player against the computer
  posts about every 100 ms; this only stops a runaway script. ``games.play.views.game.act`` asks
  :func:`check_move` and answers a refusal like any other: the board, a message and 429.
- ``RATE_LIMIT_LOGIN_FAILURES`` (default ``10/m`` per address and username) and
  ``RATE_LIMIT_LOGIN_FAILURES_PER_IP`` (default ``100/m`` per address, whatever the username): strict,
  counted here and applied by accounts, which owns the log-in (``games.accounts.throttle``).

Windows are fixed (a counter per window in the cache): cheap, one ``INCR`` a request, and at most
twice the rate across a window boundary, which is fine for each purpose. If the cache itself is
down, limits fail open: a dead Redis must not stop people playing (the moves go to the database).
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger("games.play.ratelimit")

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$", re.IGNORECASE)

MOVE_MESSAGE = "You are moving faster than anyone can play: wait a moment, then try again."


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds}s"


def parse_rate(text: str | None) -> Rate | None:
    """``"600/m"``, ``"10/min"``, ``"5/10s"``, ``"1000/h"``; empty, ``"0"`` or ``"off"`` means no limit.

    >>> parse_rate("600/m")
    Rate(count=600, seconds=60)
    >>> parse_rate("5/10s")
    Rate(count=5, seconds=10)
    >>> parse_rate("off") is None
    True
    """
    if not text or text.strip().lower() in {"0", "off", "none"}:
        return None
    match = _RATE.match(text)
    if not match:
        raise ValueError(f"not a rate: {text!r} (say e.g. 600/m)")
    count, multiple, unit = int(match.group(1)), int(match.group(2) or 1), match.group(3).lower()
    return Rate(count, multiple * _UNITS[unit])


def setting_rate(name: str) -> Rate | None:
    """The rate the setting ``name`` gives (none: no limit)."""
    return parse_rate(getattr(settings, name, ""))


def _key(scope: str, ident: str, rate: Rate, now: float) -> str:
    digest = hashlib.sha256(ident.encode()).hexdigest()[:24]  # any username makes a valid cache key
    return f"rl:{scope}:{digest}:{int(now // rate.seconds)}"


def hit(scope: str, ident: str, rate: Rate | None) -> bool:
    """Count one event for ``ident``; False when that makes it over ``rate`` in this window."""
    if rate is None:
        return True
    key = _key(scope, ident, rate, time.time())
    try:
        return _count(key, rate.seconds + 1) <= rate.count
    except ValueError:  # the key expired between add and incr: this is the first event of a window
        cache.add(key, 1, timeout=rate.seconds + 1)
        return True
    except Exception as exc:  # noqa: BLE001 - the cache is down: fail open, people keep playing
        log.warning("rate limit cache unavailable (%s: %r); allowing", scope, exc, exc_info=exc)
        return True


def _count(key: str, ttl: int) -> int:
    """Add one to the counter at ``key`` (made if missing, living ``ttl`` s) and return it.

    On Redis that is INCR and EXPIRE in one round trip (every move passes here); Django's own
    ``add`` + ``incr`` would take three."""
    redis_client = getattr(getattr(cache, "_cache", None), "get_client", None)  # Django's RedisCache
    if redis_client is not None:
        full = cache.make_and_validate_key(key)
        # No MULTI/EXEC around the two: they travel together anyway, and a window's counter that
        # missed its expiry once is set again by the next hit.
        pipe = redis_client(full, write=True).pipeline(transaction=False)
        pipe.incr(full)
        pipe.expire(full, ttl)
        return int(pipe.execute()[0])
    cache.add(key, 0, timeout=ttl)
    return cache.incr(key)


def over(scope: str, ident: str, rate: Rate | None) -> bool:
    """True when ``ident`` has used up ``rate`` in this window (without counting anything)."""
    if rate is None:
        return False
    try:
        return int(cache.get(_key(scope, ident, rate, time.time()), 0)) >= rate.count
    except Exception as exc:  # noqa: BLE001 - fail open, as in hit()
        log.warning("rate limit cache unavailable (%s: %r); allowing", scope, exc, exc_info=exc)
        return False


def retry_after(rate: Rate) -> int:
    """Seconds until the current window of ``rate`` ends."""
    return max(1, int(rate.seconds - time.time() % rate.seconds) + 1)


def client_ip(request) -> str:
    # REMOTE_ADDR is the peer daphne saw; behind a proxy, run daphne with --proxy-headers
    # (make serve: PROXY_HEADERS=1) so that it is the client's address, not the proxy's.
    return (request.META.get("REMOTE_ADDR") if request is not None else None) or "unknown"


def user_ident(user) -> str:
    # The join time too: SQLite can hand a deleted user's id to a new account (and test runs do).
    return f"{user.pk}:{user.date_joined.timestamp() if getattr(user, 'date_joined', None) else ''}"


# --- moves ------------------------------------------------------------------------------------------


def check_move(user) -> None:
    """Count one move by ``user``; raise ``services.RateLimited`` (429) when over the limit."""
    from games.play.services import RateLimited

    if not hit("move", user_ident(user), setting_rate("RATE_LIMIT_MOVES")):
        log.warning("user=%s action=rate_limited scope=move", user.pk)
        raise RateLimited(MOVE_MESSAGE)
