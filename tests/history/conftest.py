from __future__ import annotations

import pytest

from tests.services.factories import fixed_secrets, make_user


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "history")


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def carol(db):
    return make_user("carol")
