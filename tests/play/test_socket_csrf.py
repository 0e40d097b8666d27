"""The forms a socket pushes carry a CSRF token Django accepts: the socket's own cookie, masked."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.middleware.csrf import CsrfViewMiddleware, _get_new_csrf_string
from django.test import RequestFactory

from games.play.consumers import csrf_token


def _accepted(secret: str, token: str) -> bool:
    request = RequestFactory().post("/games/1/act/", {"csrfmiddlewaretoken": token})
    request.COOKIES[settings.CSRF_COOKIE_NAME] = secret
    request._dont_enforce_csrf_checks = False
    middleware = CsrfViewMiddleware(lambda r: None)
    middleware.process_request(request)
    return middleware.process_view(request, lambda r: None, (), {}) is None


def test_a_pushed_form_s_token_passes_django_s_check():
    secret = _get_new_csrf_string()
    token = csrf_token({"cookies": {settings.CSRF_COOKIE_NAME: secret}})
    assert token and token != secret
    assert _accepted(secret, token)
    assert not _accepted(_get_new_csrf_string(), token)  # another browser's cookie: refused


def test_each_push_masks_afresh():
    secret = _get_new_csrf_string()
    scope = {"cookies": {settings.CSRF_COOKIE_NAME: secret}}
    assert len({csrf_token(scope) for _ in range(20)}) == 20


@pytest.mark.parametrize("cookie", ["", "short", "x" * 31, "!" * 32])
def test_a_socket_without_a_usable_cookie_gets_no_token(cookie):
    assert csrf_token({"cookies": {settings.CSRF_COOKIE_NAME: cookie}}) == ""
    assert csrf_token({}) == ""
