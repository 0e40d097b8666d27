"""The site's settings as the test suite loads them: ``cribsite.settings`` with DEBUG on unless the
environment says otherwise (pyproject.toml points pytest-django here).

pytest-django imports the settings before any ``conftest.py`` runs, so DEBUG cannot be turned on
from one. The suite assumes a development site at import time: static files found in the source
folders without ``collectstatic`` (no manifest of hashed names), no redirect to https, the
development key. pytest-django still runs each test with ``settings.DEBUG`` False, and a test of
a DEBUG-only page turns it on itself. Set in ``os.environ``, DEBUG also reaches the processes the
tests start (the browser tests' live daphne); the production tests give theirs an environment of
their own.

The suite's own SECRET_KEY, not the development one: the servers some tests start as production
runs them (DEBUG off, which refuses the development key) must accept the sessions the tests make,
and a session is bound to the key that hashed it.
"""

from __future__ import annotations

import os

os.environ.setdefault("DEBUG", "true")

# Under pytest-xdist each worker has a database, a channel-layer prefix and a cache prefix of its own.
# They are set here, in the environment, because the live servers a worker starts are new processes
# that import these settings again: the suffix pytest-django would add in the worker's memory alone
# would leave them on another worker's database (conftest.py turns that suffix off).
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if WORKER and not os.environ.get("TEST_WORKER_SET"):
    os.environ["TEST_WORKER_SET"] = WORKER
    stem = os.environ.get("TEST_DB_NAME", "test_db.sqlite3").removesuffix(".sqlite3")
    os.environ["TEST_DB_NAME"] = f"{stem}-{WORKER}.sqlite3"
    os.environ["CHANNEL_PREFIX"] = f"{os.environ.get('CHANNEL_PREFIX', 'asgi')}-{WORKER}"
    # A Redis database of its own too: a test that clears the cache empties its whole database, and
    # another worker's rate-limit counters and heartbeats must not go with it.
    if os.environ.get("REDIS_URL"):
        from urllib.parse import urlsplit, urlunsplit

        url = urlsplit(os.environ["REDIS_URL"])
        base = int(url.path.strip("/") or 0)
        number = base + int(WORKER.removeprefix("gw") or 0)
        os.environ["REDIS_URL"] = urlunsplit(url._replace(path=f"/{number % 16}"))

os.environ.setdefault("SECRET_KEY", "tests-only-insecure-key-never-used-by-a-site")
# Push is on in the suite, with a pair made for this run (the live servers it starts inherit it);
# the tests of a site without keys clear them with override_settings.
if not os.environ.get("VAPID_PRIVATE_KEY"):
    from games.webpush.keys import new_key_pair

    os.environ["VAPID_PUBLIC_KEY"], os.environ["VAPID_PRIVATE_KEY"] = new_key_pair()

# The board's components are drawn with undefined names raising: a name a template misspells, or
# one its context forgot, fails the test that draws it (the site itself draws such a name empty).
import jinja2  # noqa: E402

from cribsite.settings import *  # noqa: E402, F403

if WORKER and DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{WORKER}"}  # noqa: F405

TEMPLATES[1]["OPTIONS"] = {**TEMPLATES[1]["OPTIONS"], "undefined": jinja2.StrictUndefined}  # noqa: F405

# Tasks run in the test's process when the enqueuing transaction commits (tests/immediate_tasks.py);
# TEST_TASKS=database gives a process the site's own backend (the worker the queue's tests start).
if os.environ.get("TEST_TASKS") != "database":
    TASKS = {"default": {"BACKEND": "tests.immediate_tasks.OnCommitImmediateBackend",
                         "QUEUES": TASKS["default"]["QUEUES"]}}  # noqa: F405
# The analyses of a finished game are not made by that backend (tests/immediate_tasks.py).
TEST_TASKS_NOT_RUN = ("analysis",)
# The workers tests start run no periodic job: a test of the schedule sets it and drives the time
# (tests/queue/test_scheduler.py reads the site's own, cribsite.settings.SCHEDULE).
SCHEDULE = {}
# A worker process a test starts may send its emails where the test reads them.
if os.environ.get("TEST_EMAIL_BACKEND"):
    EMAIL_BACKEND = os.environ["TEST_EMAIL_BACKEND"]
