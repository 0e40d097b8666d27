"""Correspondence games at scale: ``python -m bench.correspondence [--games 200] [--players 10000]``.

1. "Your turn" for a player with ``--games`` correspondence games open (half waiting on them):
   the server time of the page through the real view (a test client), its median and p95, and its
   SQL query count, beside the rules page measured in the same run (the site's frame alone).
2. The daily digest for ``--players`` players, each with a game waiting on them: its time and the
   peak of Python memory while it is built and sent (``tracemalloc``; emails go to Django's dummy
   backend), beside the same for a tenth as many players. Built a chunk at a time, the peak should
   barely move with ten times the players.

Uses its own test database (``DATABASE_URL`` picks the engine; SQLite by default) and removes it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import tracemalloc

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-correspondence-" + "x" * 40)
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("TEST_DB_NAME", "bench_correspondence.sqlite3")


def _timed_get(client, path: str, times: int) -> tuple[list[float], int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path)  # warm
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        assert client.get(path).status_code == 200
        spent.append((time.perf_counter() - started) * 1000)
    with CaptureQueriesContext(connection) as queries:
        client.get(path)
    return spent, len(queries)


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    return f"median {statistics.median(ordered):.1f} ms, p95 {ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms"


def _open_games(player, count: int) -> None:
    """``count`` correspondence games of ``player`` in progress, through the services; in half of
    them the opponent has cut, so they wait on ``player`` alone."""
    import random

    from django.contrib.auth import get_user_model

    from games.engine.actions import action_to_dict
    from games.engine.game import legal_actions
    from games.engine.rules import HouseRules
    from games.play import services

    users = get_user_model()
    rng = random.Random(5)
    for n in range(count):
        opponent = users.objects.create_user(f"opp{n}", email=f"opp{n}@example.com")
        seek = services.game_create_seek(user=player, rules=HouseRules(), invited=opponent,
                                         days_per_move=1 + n % 3)
        game = services.game_accept(user=opponent, game_id=seek.pk)
        mover, seat = (opponent, 1) if n % 2 == 0 else (player, 0)
        state = services.load_state(game)
        action = action_to_dict(rng.choice(legal_actions(state, seat)))
        del action["seat"]
        services.game_act(user=mover, game_id=game.pk, version=game.version, action=action)


def your_turn(games: int, times: int) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    player = get_user_model().objects.create_user("busy", email="busy@example.com")
    started = time.perf_counter()
    _open_games(player, games)
    print(f"set up {games} games in {time.perf_counter() - started:.1f} s")
    client = Client()
    client.force_login(player)
    page, page_q = _timed_get(client, "/your-turn/", times)
    base, base_q = _timed_get(client, "/rules/", times)
    body = client.get("/your-turn/").content.decode()
    listed = body.count("correspondence-row__link")
    print(f"Your turn ({games} games, {listed} listed): {_summary(page)}, {page_q} queries")
    print(f"rules page (baseline):  {_summary(base)}, {base_q} queries")
    print(f"ratio Your turn / rules: {statistics.median(page) / statistics.median(base):.2f}")


def _players_waiting(count: int, prefix: str) -> None:
    """``count`` players, each with one correspondence game waiting on them (rows written directly:
    the digest reads only the clocks, the seats and the players)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model

    from games.correspondence import clock
    from games.correspondence.models import SeatClock
    from games.play.models import Game, Seat

    users = get_user_model()
    now = clock.now()
    made = users.objects.bulk_create([users(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com")
                                      for n in range(count)], batch_size=1000)
    made = list(users.objects.filter(username__startswith=prefix).order_by("pk"))
    pairs = [(made[i], made[i + 1]) for i in range(0, len(made) - 1, 2)]
    games = Game.objects.bulk_create(
        [Game(created_by=a, status=Game.Status.ACTIVE, days_per_move=3) for a, _ in pairs], batch_size=1000)
    games = list(Game.objects.filter(created_by__username__startswith=prefix).order_by("pk"))
    seats, clocks = [], []
    for n, (game, (a, b)) in enumerate(zip(games, pairs, strict=True)):
        for index, user in enumerate((a, b)):
            seats.append(Seat(game=game, index=index, user=user))
            clocks.append(SeatClock(game=game, index=index, user=user, bank_seconds=86400,
                                    deadline_at=now + timedelta(hours=1 + n % 70)))
    Seat.objects.bulk_create(seats, batch_size=2000)
    SeatClock.objects.bulk_create(clocks, batch_size=2000)


def digest_memory(players: int) -> None:
    from django.test.utils import override_settings

    from games.correspondence.digest import send_digests

    results = {}
    for count, prefix in ((players // 10, "small"), (players, "large")):
        _players_waiting(count, prefix)
    # Both groups are in the tables: each run counts one group, everyone else marked as sent today.
    from games.correspondence import clock, services
    from games.correspondence.models import NoticePreferences

    day = clock.now().date()
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"):
        for count, prefix in ((players // 10, "small"), (players, "large")):
            from django.contrib.auth import get_user_model

            mine = NoticePreferences.objects.filter(user__username__startswith=prefix)
            mine.update(digest_sent_on=None)
            others = get_user_model().objects.exclude(username__startswith=prefix)
            ids = list(others.values_list("pk", flat=True))
            services.digests_sent(user_ids=ids, day=day)
            tracemalloc.start()
            started = time.perf_counter()
            sent = send_digests(day)
            spent = time.perf_counter() - started
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            results[count] = peak
            print(f"digest for {count} players: {sent} sent in {spent:.1f} s, peak Python memory "
                  f"{peak / 1024 / 1024:.1f} MiB")
    small, large = results[players // 10], results[players]
    print(f"peak memory ratio ({players} / {players // 10} players): {large / small:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=10000)
    parser.add_argument("--times", type=int, default=30)
    args = parser.parse_args()
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    # The pages name static files; the manifest exists only after collectstatic.
    from django.conf import settings
    from django.test.utils import override_settings

    override_settings(STORAGES={**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}).enable()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        your_turn(args.games, args.times)
        digest_memory(args.players)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
