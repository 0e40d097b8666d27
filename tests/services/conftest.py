"""Players for service and web tests (no password hashing: tests log in with force_login)."""

from __future__ import annotations

import pytest

from tests.services.factories import make_user


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def bob():
    return make_user("bob")


@pytest.fixture
def carol():
    return make_user("carol")
