"""CSRF tokens for boards drawn on every move: Django's format, masked more cheaply.

Django masks the cookie's secret afresh for every form it draws, drawing each of the mask's 32
characters with its own call for random bytes (75 µs a token here): twice a move, once for the
mover's answer and once for the opponent's push. These are the same tokens (a random mask and
the secret enciphered with it, ``CsrfViewMiddleware`` unmasks them as its own) from one call.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.middleware import csrf

_CHARS = csrf.CSRF_ALLOWED_CHARS
_INDEX = {c: i for i, c in enumerate(_CHARS)}
_UNBIASED = 256 - 256 % len(_CHARS)  # bytes at or above this would favour some characters


def masked(secret: str) -> str:
    """``secret`` (the cookie's value) masked for a form, as ``django.middleware.csrf`` does."""
    mask: list[int] = []
    while len(mask) < csrf.CSRF_SECRET_LENGTH:
        mask += [b % len(_CHARS) for b in secrets.token_bytes(48) if b < _UNBIASED]
    mask = mask[: csrf.CSRF_SECRET_LENGTH]
    cipher = (_CHARS[(_INDEX[c] + m) % len(_CHARS)] for c, m in zip(secret, mask, strict=True))
    return "".join(_CHARS[m] for m in mask) + "".join(cipher)


def _valid(secret: str | None) -> bool:
    return bool(secret) and len(secret) == csrf.CSRF_SECRET_LENGTH and all(c in _INDEX for c in secret)


def for_request(request) -> str:
    """The token for a request's board. ``get_token`` also marks the cookie to be sent again (to
    renew its expiry), so every move's answer carried a ``Set-Cookie`` the browser already had. A
    move's answer reuses the cookie it came with; pages (a GET) renew it as Django does."""
    secret = request.META.get("CSRF_COOKIE")
    if request.method == "POST" and _valid(secret):
        return masked(secret)
    return csrf.get_token(request)


def for_scope(scope: dict) -> str:
    """A token for forms pushed to a socket: the socket's own cookie, masked; "" without one."""
    secret = scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
    return masked(secret) if _valid(secret) else ""
