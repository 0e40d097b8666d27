"""A whole qualifying run through the desk's services against a database:
``python -m bench.desk [--json] [--fields 64x9,256x9]``.

``bench.pairing`` times the pure pairing and standings; this times what a director's press costs
with the database around them, for each field (64 entrants over 9 rounds, 256 over 9, by default),
an ACC event run round after round with seeded random results:

- ``start``: closing the entry list, seeding and pairing round 1, creating its games;
- ``results``: one round's score sheet saved (``round_set_results``: every match's result checked
  and written with its audit line, each game in play ended on the loser's behalf);
- ``pair``: the next round paired by standing and its games created (``tournament_advance``);
- ``standings``: the table with the event's tie-breaks and who is sure to qualify, as the desk and
  the tournament page draw them; ``page``: the tournament page's live part, rendered.

Each round's figure is in milliseconds; the median and the worst round are printed. Uses its own
test database (``DATABASE_URL`` picks the engine; SQLite by default) and removes it. Nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-desk-" + "x" * 40)
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("TEST_DB_NAME", "bench_desk.sqlite3")

FIELDS = ((64, 9), (256, 9))
WATCHERS = (16, 4)  # visitors, entrants


# The clock each figure is read from: the wall clock, or with --cpu this process's CPU time (the
# database is SQLite, in process), which other work on a shared machine does not stretch.
clock = time.perf_counter


def _ms(start: float) -> float:
    return (clock() - start) * 1000


def _sheet(t, rng: random.Random) -> list:
    from games.tournaments.models import Match
    from games.tournaments.services import Entry

    entries = []
    for m in Match.objects.filter(tournament=t, stage=t.stage, round_no=t.current_round,
                                  status=Match.Status.ACTIVE):
        loser = rng.choice((rng.randint(91, 120), rng.randint(61, 90), rng.randint(30, 60)))
        first = rng.random() < 0.5
        scores = f"121-{loser}" if first else f"{loser}-121"
        entries.append(Entry(m.pk, m.entrant1_id if first else m.entrant2_id, scores=scores))
    return entries


def measure(n: int, rounds: int, seed: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser

    from games.tournaments import selectors, services
    from games.tournaments.models import Entrant, Tournament
    from games.tournaments.views import render_live

    try:
        from games.tournaments.live_pages import pages
    except ImportError:  # the code before pages were shared: each socket drew its own
        pages = None

    tag = time.time_ns()
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"desk{n}-{tag}-{i}") for i in range(n)]
    )
    t = Tournament.objects.create(name=f"Bench {n}", format=Tournament.Format.ACC, qualifying_games=rounds,
                                  auto_advance=False, qualifiers=max(2, n // 4))
    Entrant.objects.bulk_create([Entrant(tournament=t, user=u) for u in users])
    rng = random.Random(seed)
    start = clock()
    services.tournament_start(tournament_id=t.pk)
    figures = {"entrants": n, "rounds": rounds, "start": _ms(start), "results": [], "pair": [],
               "standings": [], "page": [], "watchers": []}
    watchers = [AnonymousUser()] * WATCHERS[0] + users[: WATCHERS[1]]
    for round_no in range(1, rounds + 1):
        t.refresh_from_db()
        entries = _sheet(t, rng)
        start = clock()
        services.round_set_results(tournament_id=t.pk, entries=entries)
        figures["results"].append(_ms(start))
        t.refresh_from_db()
        start = clock()
        table = selectors.standings(t)
        selectors.qualification(t, table)
        figures["standings"].append(_ms(start))
        start = clock()
        render_live(t.pk, AnonymousUser())
        figures["page"].append(_ms(start))
        start = clock()
        stamp = f"{t.pk}-{round_no}"
        for user in watchers:
            if pages is not None:
                pages.page(t.pk, user, stamp)
            else:
                render_live(t.pk, user)
        figures["watchers"].append(_ms(start))
        if round_no < rounds:
            start = clock()
            services.tournament_advance(tournament_id=t.pk)
            figures["pair"].append(_ms(start))
    out = {"entrants": n, "rounds": rounds, "games_a_round": n // 2, "start_ms": round(figures["start"], 1)}
    for key in ("results", "pair", "standings", "page", "watchers"):
        values = figures[key]
        out[f"{key}_ms"] = {"median": round(statistics.median(values), 1), "worst": round(max(values), 1)}
    return out


def _fields(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((int(n), int(r)) for n, _, r in (part.partition("x") for part in text.split(",")))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.desk", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", action="store_true",
                        help="time with this process's CPU clock (SQLite only), not the wall clock")
    parser.add_argument("--fields", type=_fields, default=FIELDS,
                        help="entrants x rounds, comma separated (default 64x9,256x9)")
    args = parser.parse_args(argv)
    global clock
    clock = time.process_time if args.cpu else time.perf_counter

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        result = {"database": connection.vendor, "fields": [measure(n, r, args.seed) for n, r in args.fields]}
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    if args.json:
        print(json.dumps(result))
        return
    print(f"database {result['database']}; ms per round: median / worst")
    print(f"{'field':>9} {'start':>9} {'results':>17} {'pair next':>17} {'standings':>17} {'page':>17} "
          f"{'watchers':>17}")
    for f in result["fields"]:
        cells = " ".join(f"{f[k]['median']:>8.1f} /{f[k]['worst']:>7.1f}"
                         for k in ("results_ms", "pair_ms", "standings_ms", "page_ms", "watchers_ms"))
        print(f"{f['entrants']:>4} x {f['rounds']:<2} {f['start_ms']:>9.1f} {cells}")


if __name__ == "__main__":
    main()
