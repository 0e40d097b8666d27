"""``games.infra.auth.ModelBackend``: Django's model backend with a plain-SQL read of a request's user."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.infra.auth import ModelBackend
from tests.play.factories import make_user

pytestmark = pytest.mark.django_db


def test_it_gives_the_user_django_would(alice):
    alice.email = "alice@example.com"
    alice.save()
    got, want = ModelBackend().get_user(alice.pk), get_user_model().objects.get(pk=alice.pk)
    fields = [f.attname for f in get_user_model()._meta.concrete_fields]
    typed = lambda user: {f: (type(getattr(user, f)), getattr(user, f)) for f in fields}  # noqa: E731
    assert typed(got) == typed(want)
    assert got == want and got.get_session_auth_hash() == want.get_session_auth_hash()


def test_it_refuses_missing_inactive_and_malformed_ids(alice):
    backend = ModelBackend()
    assert backend.get_user(alice.pk + 1000) is None
    assert backend.get_user("not a number") is None
    alice.is_active = False
    alice.save()
    assert backend.get_user(alice.pk) is None


def test_it_is_the_sites_backend_and_a_changed_password_still_ends_other_sessions(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    carol = make_user("carol")
    carol.set_password("a-Long-pass-phrase-42")
    carol.save()
    elsewhere, here = Client(), Client()
    for client in (elsewhere, here):
        answer = client.post(reverse("login"), {"username": "carol", "password": "a-Long-pass-phrase-42"})
        assert answer.status_code == 302
    assert here.session["_auth_user_backend"] == "games.infra.auth.ModelBackend"
    assert elsewhere.get(reverse("lobby")).status_code == 200
    changed = here.post(reverse("password_change"), {
        "old_password": "a-Long-pass-phrase-42",
        "new_password1": "another-Long-phrase-43", "new_password2": "another-Long-phrase-43"})
    assert changed.status_code == 302
    assert here.get(reverse("lobby")).status_code == 200  # the session that changed it stays
    assert elsewhere.get(reverse("lobby")).status_code == 302  # the other one is logged out
