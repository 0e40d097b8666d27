"""Queued notices drain in bounded memory: a worker process that runs ten times the notices peaks
at about the resident memory of one that runs a tenth of them, measured in the same run
(bench/drain.py; ``python -m bench.drain`` does it for 10,000)."""

from __future__ import annotations

import pytest
from django.conf import settings

from bench.drain import measure
from tests.ops.support import database_url
from tests.queue.support import database_tasks

pytestmark = pytest.mark.django_db(transaction=True)

WORKER_ENV = {"DJANGO_SETTINGS_MODULE": "tests.settings", "TEST_TASKS": "database", "DEBUG": "false",
              "TEST_EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"}


def test_ten_times_the_notices_drain_in_about_the_same_memory():
    env = {**WORKER_ENV, "SECRET_KEY": settings.SECRET_KEY}
    with database_tasks():
        small = measure(30, database_url(), env)
        large = measure(300, database_url(), env)
    print(small.line(), large.line(), sep="\n")
    assert small.sent == 30 and large.sent == 300
    # One task at a time: what a notice holds is given back. 8 MB of slack for the allocator's noise.
    assert large.peak_rss_mb <= small.peak_rss_mb + 8, (small.line(), large.line())
