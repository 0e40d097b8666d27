"""games.infra.csrf: the board's tokens are Django's, masked from one call for random bytes."""

from __future__ import annotations

from collections import Counter

import pytest
from django.middleware import csrf as django_csrf
from django.test import RequestFactory

from games.infra import csrf


def _secret() -> str:
    return django_csrf._get_new_csrf_string()


def test_a_masked_token_unmasks_to_the_secret_as_django_reads_it():
    secret = _secret()
    for _ in range(200):
        token = csrf.masked(secret)
        assert len(token) == django_csrf.CSRF_TOKEN_LENGTH
        assert set(token) <= set(django_csrf.CSRF_ALLOWED_CHARS)
        assert django_csrf._unmask_cipher_token(token) == secret
        assert django_csrf._does_token_match(token, secret)


def test_each_token_has_a_fresh_mask():
    secret = _secret()
    assert len({csrf.masked(secret) for _ in range(100)}) == 100


def test_the_mask_uses_every_character_about_equally():
    counts = Counter("".join(csrf.masked(_secret())[:32] for _ in range(3000)))
    assert len(counts) == 62
    expected = 3000 * 32 / 62
    assert all(0.85 * expected < n < 1.15 * expected for n in counts.values()), counts


@pytest.mark.parametrize("cookie", ["", "short", "!" * 32])
def test_a_socket_without_a_good_cookie_gets_no_token(cookie):
    assert csrf.for_scope({"cookies": {"csrftoken": cookie}}) == ""
    assert csrf.for_scope({}) == ""


def test_a_socket_s_token_is_its_cookie_masked():
    secret = _secret()
    assert django_csrf._unmask_cipher_token(csrf.for_scope({"cookies": {"csrftoken": secret}})) == secret


def test_a_post_reuses_its_cookie_and_a_get_renews_it():
    secret = _secret()
    post = RequestFactory().post("/")
    post.META["CSRF_COOKIE"] = secret
    assert django_csrf._unmask_cipher_token(csrf.for_request(post)) == secret
    assert not post.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    get = RequestFactory().get("/")
    get.META["CSRF_COOKIE"] = secret
    assert django_csrf._unmask_cipher_token(csrf.for_request(get)) == secret
    assert get.META["CSRF_COOKIE_NEEDS_UPDATE"]
