"""The task queue draining turn notices: ``python -m bench.drain [--notices 10000]``.

Enqueues ``--notices`` turn notices (the real task, each with a key of its own, to a player who
asked for every move, in a game at their own pace) and runs ``manage.py task_worker --batch`` in a
process of its own until the queue is empty; prints the drain time, the notices a second and the
worker's peak resident memory (its ``ru_maxrss``, from ``os.wait4``), beside the same for a tenth
as many notices, in the same run. A worker takes one task at a time, so the peak should barely
move with ten times the notices. Emails go to Django's dummy backend; push is off.

Uses its own test database (``DATABASE_URL`` picks the engine; SQLite by default) and removes it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Drained:
    notices: int
    seconds: float
    peak_rss_mb: float
    sent: int

    def line(self) -> str:
        rate = self.notices / self.seconds
        return (f"{self.notices:>6} notices: drained in {self.seconds:.1f} s ({rate:.0f}/s), "
                f"worker peak RSS {self.peak_rss_mb:.1f} MB, {self.sent} sent")


def notice_target():
    """A game at its own pace waiting on a player who asked to hear of every move (made once)."""
    from django.contrib.auth import get_user_model

    from games.correspondence import services as notice_services
    from games.correspondence.models import NoticePreferences, SeatClock
    from games.engine.rules import HouseRules
    from games.play import services
    from games.play.models import Game

    users = get_user_model().objects
    alice = users.filter(username="drain-alice").first()
    if alice is None:
        alice = users.create_user("drain-alice", email="alice@example.com", password=None)
        bob = users.create_user("drain-bob", email="bob@example.com", password=None)
        seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob, days_per_move=1)
        services.game_accept(user=bob, game_id=seek.pk)
    game = Game.objects.filter(seats__user=alice, status=Game.Status.ACTIVE).latest("pk")
    waiting = SeatClock.objects.filter(game=game, deadline_at__isnull=False).order_by("index").first().user
    notice_services.preferences_save(user=waiting, turn_notices=NoticePreferences.Turn.EVERY, digest=False)
    return game, waiting


def fill(count: int) -> None:
    """``count`` turn notices in the queue, as that many moves would have left them."""
    from django.db import transaction

    from games.correspondence.tasks import turn_notice

    game, user = notice_target()
    with transaction.atomic():
        for _ in range(count):
            turn_notice.enqueue(uuid.uuid4().hex, game.pk, user.pk, "http://localhost:8000")


def drain(database_url: str, env: dict[str, str] | None = None, timeout: float = 1800) -> tuple[float, float]:
    """Run a task worker process until nothing is due: (seconds, its peak RSS in MB)."""
    full = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "false", "PYTHONPATH": str(ROOT),
            "BENCH_EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
            "VAPID_PUBLIC_KEY": "", "VAPID_PRIVATE_KEY": "", "GAMES_LOG_LEVEL": "WARNING", **(env or {})}
    full.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "task_worker", "--batch",
                                "--no-reload", "--interval", "0", "-v", "0"],
                               env=full, cwd=ROOT, stdout=subprocess.DEVNULL)
    # os.wait4 gives this child's own peak; waited for in a thread so a stuck worker cannot hang the run.
    waited: dict = {}
    waiter = threading.Thread(target=lambda: waited.update(r=os.wait4(process.pid, 0)), daemon=True)
    waiter.start()
    waiter.join(timeout)
    if waiter.is_alive():
        process.kill()
        waiter.join()
        raise RuntimeError(f"the worker did not drain the queue in {timeout} s")
    _, status, usage = waited["r"]
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"the worker exited with {process.returncode}")
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def measure(count: int, database_url: str, env: dict[str, str] | None = None) -> Drained:
    from django_tasks_db.models import DBTaskResult

    notice_target()
    DBTaskResult.objects.all().delete()  # the game's own first notice, or the last run's
    fill(count)
    seconds, peak = drain(database_url, env)
    left = DBTaskResult.objects.exclude(status="SUCCESSFUL").count()
    if left:
        raise RuntimeError(f"{left} tasks not run successfully")
    sent = DBTaskResult.objects.filter(return_value="sent").count()
    return Drained(count, seconds, peak, sent)


def database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notices", type=int, default=10_000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", "bench-drain-" + "x" * 40)
    os.environ.setdefault("HTTPS", "false")
    os.environ.setdefault("TEST_DB_NAME", "bench_drain.sqlite3")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        url = database_url()
        baseline = measure(max(1, args.notices // 10), url)
        full = measure(args.notices, url)
        print(baseline.line())
        print(full.line())
        per_notice = (full.seconds / full.notices) / (baseline.seconds / baseline.notices)
        print(f"peak RSS ratio {full.peak_rss_mb / baseline.peak_rss_mb:.2f} for "
              f"{full.notices / baseline.notices:.0f}x the notices; time per notice ratio {per_notice:.2f}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()
