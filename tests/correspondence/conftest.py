from __future__ import annotations

import pytest

from tests.correspondence.support import clock  # noqa: F401  the clock every test here moves
from tests.play.factories import fixed_secrets, make_user


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "correspondence")


def player(name: str):
    user = make_user(name)
    user.email = f"{name}@example.com"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def players(db):
    return player("alice"), player("bob")


@pytest.fixture(autouse=True)
def _fresh_counts():
    """The "Your turn (N)" counts live in the cache, which outlives each test's rolled-back rows."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run each move's after-commit work, as a real commit would (the test's transaction never commits)."""
    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)
    return run
