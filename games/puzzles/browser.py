"""A visitor's browser, known by a random token in a signed cookie: their answers count once and
move to their account when they sign up or log in."""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse

from games.puzzles import services

COOKIE = "puzzle_browser"
SALT = "games.puzzles.browser"
YEARS_5 = 5 * 365 * 24 * 3600


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
    if request is not None:
        services.votes_claim(user=user, browser=token_of(request))
