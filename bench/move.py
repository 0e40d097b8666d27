"""What one move costs the server, in process: ``python -m bench.move [--moves N] [--profile] [--sql]``.

Plays whole games between two people through the real view (a Django test client POSTing a
url-encoded form to ``/games/<id>/act/`` as htmx does, from a thread that has an event loop
running beside it as daphne's request threads do, so the push after the commit is handed to that
loop as in the server) and, after each move, renders the board the opponent's socket is
pushed (``render_board_oob``, what ``GameConsumer`` sends; the mover's own page has the new board in
the POST's answer and its socket skips the push). It prints the median and p95 time and the number
of SQL queries of the POST and of the push render, and what one move costs in all, which bounds how
many moves per second one worker process can serve. ``bench.load`` measures the whole site (daphne,
Redis, PostgreSQL, sockets); this isolates the Python side.

Uses its own test database (``DATABASE_URL`` picks the engine; SQLite by default) and removes it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import os
import pstats
import random
import statistics
import threading
import time
from urllib.parse import urlencode

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-move-" + "x" * 40)
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("TEST_DB_NAME", "bench_move.sqlite3")


def _median_p95(values: list[float]) -> dict:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2)}


def run(moves: int, profiler: cProfile.Profile | None, loop: asyncio.AbstractEventLoop,
        show_sql: bool = False) -> dict:
    from asgiref.sync import SyncToAsync
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from games.engine.actions import action_to_dict
    from games.engine.game import legal_actions
    from games.engine.rules import HouseRules
    from games.play import services
    from games.play.board.player import render_board_oob
    from games.play.models import Game

    users = get_user_model()
    players = [users.objects.create_user(f"bench{i}-{time.time_ns()}", password="x") for i in range(2)]
    clients = []
    for user in players:
        client = Client(headers={"HX-Request": "true"})
        client.force_login(user)
        client.get("/health/")  # a client loads the middleware (and whitenoise scans its files) once
        clients.append(client)
    rng = random.Random(7)
    post_ms, post_q, push_ms, push_q = [], [], [], []
    game = None
    cpu_started = time.process_time()
    while len(post_ms) < moves:
        if game is None or game.status != Game.Status.ACTIVE:
            game = services.game_create_between(players=players, rules=HouseRules())
        state = services.load_state(game)
        seat = min(state.to_act)
        action = action_to_dict(rng.choice(legal_actions(state, seat)))
        data = {k: v for k, v in action.items() if k not in ("seat", "cards")}
        if "cards" in action:
            data["cards"] = action["cards"]
        data["version"] = game.version
        url = f"/games/{game.pk}/act/"
        if profiler:
            profiler.enable()
        # Set for each request, as daphne's ``sync_to_async`` sets it for the thread it runs on
        # (asgiref's own calls in this thread, the health check's among them, set it to theirs).
        SyncToAsync.threadlocal.main_event_loop = loop
        SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
        # The statements are counted on every tenth move and the last: capturing them switches on
        # Django's debug cursor, which records and logs each one, about a twentieth of a move that
        # no server spends.
        counted = len(post_ms) % 10 == 0 or len(post_ms) == moves - 1
        with _captured(connection, counted) as queries:
            start = time.perf_counter()
            response = clients[seat].post(url, urlencode(data, doseq=True), content_type=FORM)
            post_ms.append((time.perf_counter() - start) * 1000)
        if counted:
            post_q.append(len(queries))
        if show_sql and len(post_ms) == moves:
            _print_sql("POST /act/", queries)
        if response.status_code != 200:
            raise SystemExit(f"move refused: {response.status_code} {data}")
        # Only the opponent's socket renders: the mover's page has the board in its answer.
        with _captured(connection, counted) as queries:
            start = time.perf_counter()
            render_board_oob(game.pk, players[1 - seat], "x" * 64)
            push_ms.append((time.perf_counter() - start) * 1000)
        if counted:
            push_q.append(len(queries))
        if show_sql and len(post_ms) == moves:
            _print_sql("push render", queries)
        if profiler:
            profiler.disable()
        game.refresh_from_db()
    # CPU time is steadier than wall time on a shared machine (it also counts the set-up between
    # moves: loading the state to pick a legal move, about a tenth).
    cpu_ms = (time.process_time() - cpu_started) * 1000 / len(post_ms)
    post, push = _median_p95(post_ms), _median_p95(push_ms)
    return {
        "moves": len(post_ms),
        "post_ms": post,
        "post_queries": statistics.median(post_q),
        "push_render_ms": push,
        "push_queries": statistics.median(push_q),
        "move_ms": round(post["p50"] + push["p50"], 2),
        "moves_per_second_per_worker": round(1000 / (post["p50"] + push["p50"]), 1),
        "cpu_ms_per_move": round(cpu_ms, 2),
    }


FORM = "application/x-www-form-urlencoded"  # what htmx sends for a form without a file


def serving_loop() -> asyncio.AbstractEventLoop:
    """An event loop running in a thread of its own, as daphne's runs beside its request threads:
    the push after a move's commit is handed to it (``games/infra/loop_send.py``). Without one,
    each push made a new loop and thread through ``async_to_sync``, a cost no server pays. Its CPU
    is counted: ``process_time`` is the whole process's."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="bench-loop", daemon=True).start()
    return loop


def _captured(connection, counted: bool):
    from django.test.utils import CaptureQueriesContext

    return CaptureQueriesContext(connection) if counted else contextlib.nullcontext()


def _print_sql(what: str, queries) -> None:
    print(f"{what}: {len(queries)} queries")
    for q in queries.captured_queries:
        print(f"  {q['sql'][:200]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--profile", action="store_true", help="print the 30 costliest functions")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--sql", action="store_true", help="print the SQL of the last move")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    # The test environment times every template render for assertions; production does not.
    from django.template import Template
    from django.test.utils import _TestState

    Template._render = _TestState.saved_data.template_render
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    profiler = cProfile.Profile() if args.profile else None
    loop = serving_loop()
    try:
        run(20, None, loop)  # warm the template and URL caches
        figures = run(args.moves, profiler, loop, show_sql=args.sql)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        connection.creation.destroy_test_db(old_name, verbosity=0)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{figures['moves']} moves, database {connection.vendor}")
    print(f"  POST /act/      p50 {figures['post_ms']['p50']:7.2f} ms  p95 "
          f"{figures['post_ms']['p95']:7.2f} ms"
          f"  {figures['post_queries']:g} queries")
    print(f"  push render     p50 {figures['push_render_ms']['p50']:7.2f} ms  p95 "
          f"{figures['push_render_ms']['p95']:7.2f} ms  {figures['push_queries']:g} queries")
    print(f"  one move (POST + push) {figures['move_ms']} ms: "
          f"{figures['moves_per_second_per_worker']} moves/s per worker process")
    print(f"  CPU per move, all in: {figures['cpu_ms_per_move']} ms")
    if profiler:
        lines = int(os.environ.get("PROFILE_LINES", "30"))
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(lines)


if __name__ == "__main__":
    main()
