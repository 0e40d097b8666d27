"""Two guards at the edge of the site: requests no browser sends, and a database too busy to answer.

A NUL character in a URL, a query, a form field or a cookie is never legitimate, and PostgreSQL
refuses it in any text it is asked to compare (``DataError``): a username or an invitation token
with one in the path would otherwise be a 500 on PostgreSQL (SQLite just finds nothing).

When every pooled database connection is taken for ``DB_POOL_TIMEOUT`` seconds (a site far past
its capacity), the request is answered 503 with ``Retry-After`` instead of a 500 and a traceback:
the site is overloaded, not broken, and a client may try again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
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


class BusyDatabaseMiddleware:
    """A view that could not get a pooled connection in time: 503 and Retry-After, not a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not _pool_timeout(exception):
            return None
        log.warning("path=%s action=busy no database connection free in time", request.path)
        response = HttpResponse("The site is very busy just now: try again in a moment.", status=503,
                                content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "5"
        return response
