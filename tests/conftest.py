"""Shared fixtures: a live daphne (HTTP + websockets) for browser tests, Debian's Chromium."""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ThreadPoolExecutor
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

# Tests that behave the same on any database, cache and channel layer. CI's PostgreSQL + Redis pass
# exists for those semantics and leaves these out (-m "not screen and not pure"); the SQLite pass
# runs them. "screen": draws a page and measures or moves it (layout, fits, motion, focus and keys,
# charts), or is one browser alone with the site (whole games against the computer, pass and play on
# one device, the puzzle, the lobby's forms, preferences, links, the record's check and replay, the
# offline app): one player, no push between people or processes, their database work the services'
# that both passes test. "pure": touches no database, cache or channel layer at all.
SCREEN = (
    "tests/e2e/test_board_fits.py",
    "tests/e2e/test_board_layout.py",
    "tests/e2e/test_board_motion.py",
    "tests/e2e/test_board_keys.py",
    "tests/e2e/test_board_turn_cues.py",
    "tests/e2e/test_board_focus.py",
    "tests/e2e/test_charts_fit.py",
    "tests/e2e/test_lobby_fits.py",
    "tests/e2e/test_error_pages.py",
    "tests/e2e/test_hints.py",
    "tests/history/test_e2e_charts.py",
    "tests/history/test_e2e_record_first_screen.py",
    "tests/e2e/test_replay_fits.py",
    "tests/e2e/test_counting_practice.py",
    "tests/e2e/test_lesson.py",
    "tests/e2e/test_play_computer.py",
    "tests/e2e/test_four_players.py",
    "tests/e2e/test_board_against_the_computer.py",
    "tests/e2e/test_pass_play.py",
    "tests/e2e/test_puzzle.py",
    "tests/e2e/test_lobby_forms.py",
    "tests/e2e/test_table_preferences.py",
    "tests/e2e/test_links_between_apps.py",
    "tests/e2e/test_offline_app.py",
    "tests/history/test_e2e_history.py",
    "tests/history/test_win_chart.py",
    "tests/tournaments/test_e2e_bracket_phone.py",
)
PURE = (
    "tests/engine/",
    "tests/test_dependencies.py",
    "tests/test_import_cycles.py",
    "tests/test_doctests.py",
    "tests/ops/test_bench_ai_duplicate.py",
    "tests/ops/test_bench_ai_pegging.py",
    "tests/ops/test_bench_ai_variant.py",
)


def pytest_itemcollected(item: pytest.Item) -> None:
    path = item.nodeid.split("::", 1)[0]
    if path.startswith(SCREEN):
        item.add_marker(pytest.mark.screen)
    if path.startswith(PURE):
        item.add_marker(pytest.mark.pure)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API leaves an event loop running in the main thread for
    the rest of the session, and asyncio tests (consumers) cannot start their own after that."""

    def uses_browser(item: pytest.Item) -> bool:
        fixtures = set(getattr(item, "fixturenames", ()))
        return bool(BROWSER_FIXTURES & fixtures) or item.get_closest_marker("e2e") is not None

    # Within each group the long tests go first: the test processes (xdist) take tests in this order,
    # so the run ends on short ones and neither process is left finishing a long one alone.
    items.sort(key=lambda item: (uses_browser(item), item.get_closest_marker("slow") is None))


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix() -> None:
    """Each xdist worker's databases are named in tests/settings.py, where its live servers see them."""


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


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    """The ``page`` fixture's browser asks for reduced motion. A click aims at where a card lies at
    one instant and lands a few milliseconds later: a card still gliding in from the pack has moved
    from under it, and the click picks nothing or the card beside it. The motion tests open their
    own contexts with motion on (open_game, tests/e2e/board_watch.py)."""
    return {**browser_context_args, "reduced_motion": "reduce"}


@pytest.fixture
def context(context):
    """Playwright's browser context, closed (with its pages and their sockets) before the test's
    database is flushed, and the live server let finish what the pages had asked of it. A computer's
    move or a socket's goodbye still in a transaction when the flush's TRUNCATE takes its locks
    deadlocked on PostgreSQL now and then, the flush failed, and the next test met the last one's
    rows."""
    yield context
    context.close()
    _wait_until_no_other_session_is_busy()


@pytest.fixture(autouse=True)
def _pushes_leave_the_playwright_thread(request, monkeypatch):
    """A move a browser test makes through the services (the other player, set-up) pushes from the
    test thread, where Playwright's event loop runs and ``async_to_sync`` refuses to: the push goes
    from a thread of its own instead, as it would from another server process, and on Redis it
    reaches the live server's sockets."""
    if "live_daphne" not in request.fixturenames:
        return
    from asgiref.sync import async_to_sync

    from games.play import broadcast

    def off_the_loop(send):
        def call(*args, **kwargs):
            with ThreadPoolExecutor(max_workers=1) as pool:
                return pool.submit(async_to_sync(send), *args, **kwargs).result()

        return call

    monkeypatch.setattr(broadcast, "async_to_sync", off_the_loop)


@pytest.fixture(autouse=True)
def _live_server_done_before_the_flush(request):
    """The same wait for a browser test that opens its own contexts (a viewport or touch of its own):
    the test's database is asked for first, so this teardown runs before its flush. A test with the
    ``context`` fixture has waited at its teardown already, after its own contexts were closed."""
    marker = request.node.get_closest_marker("django_db")
    if "live_daphne" not in request.fixturenames or marker is None or "context" in request.fixturenames:
        yield
        return
    transactional = marker.kwargs.get("transaction", False)
    request.getfixturevalue("transactional_db" if transactional else "db")
    yield
    _wait_until_no_other_session_is_busy()


def _wait_until_no_other_session_is_busy(seconds: float = 10.0) -> None:
    """On PostgreSQL: until no other connection to the test database is in a statement or a
    transaction, for half a second (a closed socket's goodbye reaches the server a moment after its
    page is gone; SQLite's flush waits on its lock by itself)."""
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline, quiet = time.monotonic() + seconds, 0
    while quiet < 10 and time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"
            )
            busy = cursor.fetchone()[0]
        quiet = 0 if busy else quiet + 1
        time.sleep(0.05)


@pytest.fixture(scope="session", autouse=True)
def _threads_let_go_of_the_database(django_db_setup):
    """At the end of the run, every long-lived thread that may have used the database closes its
    connection, before the test database is dropped (PostgreSQL refuses to drop one in use, a
    warning): the socket threads (a render still finishing when its test ended kept one open), the
    request threads of the pooled handler, and asgiref's one thread for thread-sensitive calls."""
    yield
    from concurrent.futures import wait

    from asgiref.sync import SyncToAsync
    from django.conf import settings
    from django.db import connections

    from games.infra.threads import socket_executor

    futures = []
    if socket_executor.cache_info().currsize:
        # One task per thread: each waits at the barrier until all run, so no thread takes two.
        barrier = threading.Barrier(settings.SOCKET_THREADS, timeout=10)

        def let_go() -> None:
            barrier.wait()
            connections.close_all()

        futures += [socket_executor().submit(let_go) for _ in range(settings.SOCKET_THREADS)]
    from cribsite.asgi import django_asgi_app

    one_thread_executors = [SyncToAsync.single_thread_executor]
    for idle in list(django_asgi_app._idle.values()):  # per event loop: asyncio.Queue of executors
        one_thread_executors += list(idle._queue)
    futures += [executor.submit(connections.close_all) for executor in one_thread_executors]
    wait(futures, timeout=20)


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test gets its own channel layer, as Channels gives one when CHANNEL_LAYERS changes.
    channels_redis keeps an asyncio lock per channel, bound to the event loop that first took it; a
    socket test cut off mid-receive left one that the next test's loop could not take ("is bound to
    a different event loop"), and socket tests after it failed (PostgreSQL + Redis pass, now and
    then)."""
    yield
    from channels.layers import channel_layers

    channel_layers.backends.clear()


# Players for service and web tests (no password hashing: tests log in with force_login).
@pytest.fixture
def alice(db):
    from tests.play.factories import make_user

    return make_user("alice")


@pytest.fixture
def bob(db):
    from tests.play.factories import make_user

    return make_user("bob")


@pytest.fixture
def carol(db):
    from tests.play.factories import make_user

    return make_user("carol")
