"""The request's and the socket's user itself, not a lazy proxy of it."""

from __future__ import annotations

from django.contrib.auth import middleware as auth_middleware
from django.http import HttpRequest
from django.utils.functional import LazyObject, empty


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, with ``request.user`` the user itself rather than a lazy proxy of it.

    Every attribute read through Django's ``SimpleLazyObject`` raises and catches an
    ``AttributeError`` on its way to the user (about 30 a move, with the proxy's own calls 2% of
    a worker under bench.load), and every page and action of this site reads its user anyway.
    The user is the one Django's lazy object would give (``get_user`` of the same module, which
    checks the session's password hash and remembers the user on the request); static files are
    answered before this runs, and a request without a session costs no query."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = auth_middleware.get_user(request)


class SocketUserMiddleware:
    """For websockets, inside channels' ``AuthMiddleware``: the scope's user itself instead of the
    lazy wrapper that middleware resolved, for the same reason as above (each push reads a few of
    the user's attributes, every consumer of the site)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        user = scope.get("user")
        if isinstance(user, LazyObject) and user._wrapped is not empty:
            scope = {**scope, "user": user._wrapped}
        return await self.app(scope, receive, send)
