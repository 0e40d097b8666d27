from __future__ import annotations

import pytest

from tests.play.factories import fixed_secrets, make_user


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "queue")


def player(name: str):
    user = make_user(name)
    user.email = f"{name}@example.com"
    user.save(update_fields=["email"])
    return user


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Counts and presence live in the cache, which outlives each test's rows."""
    from django.core.cache import cache

    cache.clear()
