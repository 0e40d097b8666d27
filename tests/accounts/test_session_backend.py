"""Log-ins go through Django's own model backend, and a session that named the site's former one
stays logged in (``accounts/migrations/0001``)."""

from __future__ import annotations

import importlib
from importlib import import_module

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.play.factories import make_user

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.accounts.migrations.0001_sessions_name_djangos_model_backend")


class _Editor:
    connection = connection


def _session_of(user, backend: str) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY], store[BACKEND_SESSION_KEY] = str(user.pk), backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def _client(session_key: str) -> Client:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = session_key
    return client


def test_a_log_in_names_djangos_backend(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    carol = make_user("carol")
    carol.set_password("a-Long-pass-phrase-42")
    carol.save()
    client = Client()
    answer = client.post(reverse("login"), {"username": "carol", "password": "a-Long-pass-phrase-42"})
    assert answer.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"
    assert client.get(reverse("lobby")).status_code == 200


def test_a_session_of_the_former_backend_stays_logged_in(alice, bob):
    former = _session_of(alice, migration.OLD)
    current = _session_of(bob, migration.NEW)
    assert _client(former).get(reverse("lobby")).status_code == 302  # what the change alone would do
    migration.rename_backend(apps, _Editor())
    assert _client(former).get(reverse("lobby")).status_code == 200
    assert _client(current).get(reverse("lobby")).status_code == 200
    stored = import_module(settings.SESSION_ENGINE).SessionStore(session_key=former).load()
    assert stored[BACKEND_SESSION_KEY] == migration.NEW and stored[SESSION_KEY] == str(alice.pk)
