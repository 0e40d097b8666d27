"""Fixtures for the operations tests: static files collected once, a log file per test, the world the
security tests attack."""

from __future__ import annotations

import os

import pytest

from tests.ops.security_support import World
from tests.ops.support import collect_static


@pytest.fixture(scope="session")
def static_root(tmp_path_factory):
    """The static files as ``make serve`` collects them (DEBUG off needs the manifest)."""
    root = tmp_path_factory.mktemp("staticfiles")
    collect_static(root)
    return root


@pytest.fixture
def server_log(tmp_path):
    return tmp_path / "serve.log"


@pytest.fixture
def redis_url() -> str:
    """The Redis of a PostgreSQL + Redis run, or '' on the SQLite + in-memory run."""
    return os.environ.get("REDIS_URL", "")


@pytest.fixture
def world() -> World:
    return World()
