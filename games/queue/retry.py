"""Trying a task again later: django-tasks runs a task once, so a task whose work failed for a
while (a mail server away, a push service answering 503) enqueues itself again, later each time.

The waits double from ``FIRST`` up to ``LONGEST``; after ``ATTEMPTS`` runs it gives up (about
two and a half hours of trying), and says so in the log.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.utils import timezone

log = logging.getLogger("games.queue")

FIRST = timedelta(seconds=15)
LONGEST = timedelta(minutes=30)
ATTEMPTS = 10


def wait_before(attempt: int) -> timedelta:
    """How long after failed run number ``attempt`` (0 for the first) the next one waits.

    >>> [int(wait_before(n).total_seconds()) for n in range(9)]
    [15, 30, 60, 120, 240, 480, 960, 1800, 1800]
    """
    return min(FIRST * 2 ** attempt, LONGEST)


def again(task, *args, attempt: int) -> bool:
    """Enqueue ``task(*args, attempt=attempt + 1)`` after the back-off; False (and logged) when
    ``attempt`` was the last one allowed."""
    if attempt + 1 >= ATTEMPTS:
        log.error("action=task_gave_up task=%s attempts=%d", task.name, attempt + 1)
        return False
    task.using(run_after=timezone.now() + wait_before(attempt)).enqueue(*args, attempt=attempt + 1)
    log.info("action=task_retry task=%s attempt=%d in_s=%d", task.name, attempt + 1,
             wait_before(attempt).total_seconds())
    return True
