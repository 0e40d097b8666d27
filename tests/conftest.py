"""Shared fixtures: a live daphne (HTTP + websockets) for browser tests, Debian's Chromium."""

from __future__ import annotations

import multiprocessing
import os
import threading
from functools import partial

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Playwright's sync API runs an event loop in the test thread; the ORM in test bodies must still work.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# Computer players answer at once in tests; the pause is a nicety for people.
os.environ.setdefault("COMPUTER_DELAY_SECONDS", "0")


def pytest_configure(config: pytest.Config) -> None:
    # With fork, a live daphne started after an async consumer test resets handshakes (TESTING.md).
    multiprocessing.set_start_method("spawn", force=True)


BROWSER_FIXTURES = {"page", "browser", "context"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API leaves an event loop running in the main thread for
    the rest of the session, and asyncio tests (consumers) cannot start their own after that."""

    def uses_browser(item: pytest.Item) -> bool:
        fixtures = set(getattr(item, "fixturenames", ()))
        return bool(BROWSER_FIXTURES & fixtures) or item.get_closest_marker("e2e") is not None

    items.sort(key=uses_browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def live_daphne(django_db_setup, django_db_blocker):
    """A daphne process serving the project (static files included) against the test database."""
    from channels.testing.live import make_application, set_database_connection
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    process = DaphneProcess(
        "localhost",
        partial(make_application, static_wrapper=ASGIStaticFilesHandler),
        setup=set_database_connection,
    )
    process.start()
    if not process.ready.wait(timeout=60):
        process.terminate()
        raise RuntimeError("live daphne did not start")
    url = f"http://localhost:{process.port.value}"
    try:
        yield url
    finally:
        process.terminate()
        process.join(timeout=10)


@pytest.fixture(scope="session", autouse=True)
def _socket_threads_let_go_of_the_database(django_db_setup):
    """At the end of the run, each socket thread (``cribsite.threads.socket_executor``) closes its
    database connection, before the test database is dropped: a render still finishing when its
    test ended kept one open, and PostgreSQL refused to drop a database in use (a warning)."""
    yield
    from concurrent.futures import wait

    from django.conf import settings
    from django.db import connections

    from cribsite.threads import socket_executor

    if not socket_executor.cache_info().currsize:
        return
    # One task per thread: each waits at the barrier until all are running, so no thread takes two.
    barrier = threading.Barrier(settings.SOCKET_THREADS, timeout=10)

    def let_go() -> None:
        barrier.wait()
        connections.close_all()

    wait([socket_executor().submit(let_go) for _ in range(settings.SOCKET_THREADS)], timeout=20)


# Players for service and web tests (no password hashing: tests log in with force_login).
@pytest.fixture
def alice(db):
    from tests.services.factories import make_user

    return make_user("alice")


@pytest.fixture
def bob(db):
    from tests.services.factories import make_user

    return make_user("bob")


@pytest.fixture
def carol(db):
    from tests.services.factories import make_user

    return make_user("carol")
