"""A visitor's browser, known by a random token in a signed cookie: their answers count once and
move to their account when they sign up or log in."""

from __future__ import annotations

import logging
import secrets

from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse

from games.puzzles import services

COOKIE = "puzzle_browser"
SALT = "games.puzzles.browser"
YEARS_5 = 5 * 365 * 24 * 3600

log = logging.getLogger(__name__)


def token_of(request: HttpRequest) -> str:
    new = getattr(request, "_puzzle_new_token", "")
    if new:
        return new
    value = request.get_signed_cookie(COOKIE, default="", salt=SALT)
    return value if isinstance(value, str) and len(value) <= 40 else ""


def ensure_token(request: HttpRequest) -> str:
    """The browser's token, a new one if it has none (sent by ``remember``)."""
    token = token_of(request)
    if not token:
        token = secrets.token_urlsafe(18)
        request._puzzle_new_token = token
    return token


def remember(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    token = getattr(request, "_puzzle_new_token", "")
    if token:
        response.set_signed_cookie(COOKIE, token, salt=SALT, max_age=YEARS_5, httponly=True, samesite="Lax",
                                   secure=request.is_secure())
    return response


def claim_on_login(sender, request, user, **kwargs) -> None:
    """A fault here must not cost the player their log-in: it is undone in its own savepoint and
    logged, and the answers stay with the browser to be moved at the next log-in."""
    if request is None:
        return
    try:
        with transaction.atomic():
            services.votes_claim(user=user, browser=token_of(request))
    except DatabaseError:
        log.exception("puzzle answers not moved to user=%s", user.pk)
