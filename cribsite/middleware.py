"""Two guards at the edge of the site: requests no browser sends, and a database that cannot answer.

A NUL character in a URL, a query, a form field or a cookie is never legitimate, and PostgreSQL
refuses it in any text it is asked to compare (``DataError``): a username or an invitation token
with one in the path would otherwise be a 500 on PostgreSQL (SQLite just finds nothing).

When every pooled database connection is taken for ``DB_POOL_TIMEOUT`` seconds (a site far past
its capacity), the request is answered 503 with ``Retry-After`` instead of a 500 and a traceback:
the site is overloaded, not broken, and a client may try again. The same holds while the database
cannot be reached at all (restarted, failed over): the transaction that could not start or commit
changed nothing, so the answer is a 503 the board's unsent-move logic sends again, not a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

log = logging.getLogger("games.overload")

NUL = "\x00"


class RejectNullCharactersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._has_nul(request):
            return HttpResponseBadRequest("Bad request: null characters are not allowed.",
                                          content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def _has_nul(request: HttpRequest) -> bool:
        if NUL in request.path:
            return True
        parts = [request.GET, request.COOKIES]
        # Only url-encoded forms: reading a multipart body here would fix its upload handlers early.
        if request.method == "POST" and request.content_type == "application/x-www-form-urlencoded":
            parts.append(request.POST)
        for part in parts:
            items = part.lists() if hasattr(part, "lists") else ((k, [v]) for k, v in part.items())
            for key, values in items:
                if NUL in key or any(NUL in v for v in values):
                    return True
        return False


def _pool_timeout(exc: BaseException) -> bool:
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # pragma: no cover - psycopg-pool is in requirements.txt
        return False
    return isinstance(exc, OperationalError) and isinstance(exc.__cause__, PoolTimeout)


# The server shutting down, crashed, or starting up, and the connection exceptions (class 08).
SERVER_AWAY_STATES = ("57P01", "57P02", "57P03", "08")


def _connection_lost(exc: BaseException) -> bool:
    """The database server could not be reached, dropped the connection, or is not accepting one yet.
    Other errors the server reports (a constraint, a serialization failure) carry another SQLSTATE;
    a connection lost on the way has none."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if cause is None or not type(cause).__module__.startswith("psycopg"):
        return False
    state = getattr(cause, "sqlstate", None)
    return state is None or state.startswith(SERVER_AWAY_STATES)


BUSY = "The site is very busy just now: try again in a moment."
AWAY = "The game's database cannot be reached just now: nothing was changed. Try again in a moment."


class DatabaseUnavailableMiddleware:
    """A view that could not get a pooled connection in time, or could not reach the database at
    all: 503 and Retry-After, not a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if _pool_timeout(exception):
            log.warning("path=%s action=busy no database connection free in time", request.path)
            text, retry = BUSY, "5"
        elif _connection_lost(exception):
            log.warning("path=%s action=database-away %s", request.path, str(exception).splitlines()[0][:200])
            text, retry = AWAY, "2"
        else:
            return None
        response = HttpResponse(text, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = retry
        return response
