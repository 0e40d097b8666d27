"""The site's address in the links of its emails (turn notices, the daily summary, unsubscribe).

Production names it in ``SITE_URL`` (``check --deploy`` warns when it is unset). Without it the
links use the address the site is being served at: the origin of the request that led to the email
(a move that made it someone's turn), else the address ``manage.py runserver`` was started on,
else ``http://localhost:8000``. A notice is sent by a task, in the worker's process: the change
that enqueues it passes ``for_task()`` along, and the task sends inside ``serving()`` of it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

FALLBACK = "http://localhost:8000"
_request_origin: ContextVar[str] = ContextVar("request_origin", default="")


def runserver_origin(argv: Sequence[str]) -> str:
    """The address ``manage.py runserver [addr:]port`` serves, from its command line ("" if none).

    >>> runserver_origin(["manage.py", "runserver", "0.0.0.0:8001"])
    'http://localhost:8001'
    >>> runserver_origin(["manage.py", "runserver", "--noreload", "192.168.1.5:9000"])
    'http://192.168.1.5:9000'
    >>> runserver_origin(["manage.py", "runserver"]), runserver_origin(["manage.py", "migrate"])
    ('http://127.0.0.1:8000', '')
    """
    if "runserver" not in argv[1:2]:
        return ""
    given = [a for a in argv[2:] if not a.startswith("-")]
    host, _, port = (given[0] if given else "127.0.0.1:8000").rpartition(":")
    host = host or "127.0.0.1"
    if host in ("0.0.0.0", "[::]", "::"):  # every interface: this machine answers as localhost
        host = "localhost"
    return f"http://{host}:{port}"


def site_url() -> str:
    """Where links in emails point (no trailing slash)."""
    return settings.SITE_URL or _request_origin.get() or runserver_origin(sys.argv) or FALLBACK


def for_task() -> str:
    """The origin a task enqueued now must link to: "" when ``SITE_URL`` is set (it wins wherever the
    task runs), else the request's or ``runserver``'s, which the worker's process cannot know."""
    if settings.SITE_URL:
        return ""
    return _request_origin.get() or runserver_origin(sys.argv)


@contextmanager
def serving(origin: str) -> Iterator[None]:
    """Links made inside go to ``origin`` (from ``for_task``) unless ``SITE_URL`` is set."""
    token = _request_origin.set(origin)
    try:
        yield
    finally:
        _request_origin.reset(token)


class RequestOriginMiddleware:
    """Keeps the request's origin (scheme and host as the browser used them) for the emails it
    leads to. Only when ``SITE_URL`` is unset: a Host header is the client's word, not the site's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.SITE_URL:
            return self.get_response(request)
        try:
            origin = request.build_absolute_uri("/").rstrip("/")
        except Exception:  # noqa: BLE001 - a Host not in ALLOWED_HOSTS: Django answers it 400 itself
            origin = ""
        token = _request_origin.set(origin)
        try:
            return self.get_response(request)
        finally:
            _request_origin.reset(token)
