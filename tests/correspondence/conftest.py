from __future__ import annotations

import pytest

from tests.play.corr_support import clock  # noqa: F401  the clock every test here moves
from tests.play.factories import fixed_secrets, make_user


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "corr")


def player(name: str):
    user = make_user(name)
    user.email = f"{name}@example.com"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def players(db):
    return player("alice"), player("bob")
