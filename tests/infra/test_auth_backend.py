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


def test_the_request_user_is_read_at_once_and_is_the_user_itself(alice, rf, django_assert_num_queries):
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils.functional import LazyObject

    from games.infra.middleware import AuthenticationMiddleware

    middleware = AuthenticationMiddleware(lambda request: None)
    anonymous = rf.get("/")
    anonymous.session = SessionStore()
    with django_assert_num_queries(0):  # no session key: nothing to read
        middleware.process_request(anonymous)
    assert isinstance(anonymous.user, AnonymousUser) and not isinstance(anonymous.user, LazyObject)

    signed_in = Client()
    signed_in.force_login(alice)
    request = rf.get("/")
    request.session = SessionStore(signed_in.session.session_key)
    middleware.process_request(request)
    assert type(request.user) is get_user_model() and request.user == alice
    assert request._cached_user is request.user  # as Django's lazy user remembers it


def test_a_socket_s_scope_holds_the_user_channels_resolved_itself(alice):
    import asyncio

    from channels.auth import UserLazyObject
    from django.contrib.auth.models import AnonymousUser

    from games.infra.middleware import SocketUserMiddleware

    seen = []

    async def app(scope, receive, send):
        seen.append(scope.get("user"))

    for user in (alice, AnonymousUser()):
        lazy = UserLazyObject()
        lazy._wrapped = user  # as channels' AuthMiddleware resolves it
        asyncio.run(SocketUserMiddleware(app)({"type": "websocket", "user": lazy}, None, None))
    asyncio.run(SocketUserMiddleware(app)({"type": "websocket"}, None, None))  # no auth stack: no user
    assert seen[0] is alice and isinstance(seen[1], AnonymousUser) and seen[2] is None
    assert not any(isinstance(user, UserLazyObject) for user in seen)
