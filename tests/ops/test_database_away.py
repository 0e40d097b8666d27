"""The database cannot be reached for a while: a move is refused with a clear message and changes
nothing, the board keeps it and sends it again, and it lands once when PostgreSQL is back.

The browser test stops and starts the machine's PostgreSQL itself, so it runs only on the
PostgreSQL pass and with the machine to itself (``alone``).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import psycopg
import pytest
from django.db import InterfaceError, OperationalError, connections
from playwright.sync_api import Page, expect

from games.play import services
from games.play.models import Game, Move
from tests.live.support import assert_log_is_whole, session_key, two_players
from tests.ops.support import Site, wait_for_other_sessions_to_end
from tests.play.factories import fixed_secrets

HTMX = {"HX-Request": "true"}
WAIT_MS = 20000
RESUME_MS = 5000  # play resumes within this long of the database returning


def lost(**kwargs):
    try:
        raise psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly")
    except psycopg.OperationalError as exc:
        raise OperationalError(str(exc)) from exc


def serialization_failure(**kwargs):
    try:
        raise psycopg.errors.SerializationFailure("could not serialize access")
    except psycopg.Error as exc:
        raise OperationalError(str(exc)) from exc


def interface_error(**kwargs):
    raise InterfaceError("connection already closed")


@pytest.mark.django_db
@pytest.mark.parametrize("failure", [lost, interface_error], ids=["connection-lost", "connection-closed"])
def test_a_move_made_while_the_database_is_away_is_a_503_that_changes_nothing(client, monkeypatch, failure):
    game, alice, _ = two_players()
    client.force_login(alice)
    monkeypatch.setattr(services, "game_act", failure)
    response = client.post(f"/games/{game.pk}/act/", {"version": game.version, "type": "go"}, headers=HTMX)
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "database cannot be reached" in response.content.decode()
    assert "nothing was changed" in response.content.decode()
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_an_error_the_database_reports_is_not_taken_for_an_outage(client, monkeypatch):
    game, alice, _ = two_players()
    client.force_login(alice)
    monkeypatch.setattr(services, "game_act", serialization_failure)
    with pytest.raises(OperationalError):
        client.post(f"/games/{game.pk}/act/", {"version": game.version, "type": "go"})


# --- PostgreSQL stopped and started under a live board -------------------------------------------


def cluster() -> tuple[str, str]:
    version = sorted(p.name for p in Path("/etc/postgresql").iterdir())[0]
    return version, "main"


def postgresql(action: str) -> None:
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", *cluster(), action, *(
        ["-m", "fast"] if action == "stop" else [])], check=True, capture_output=True, timeout=60)


def postgresql_ready(timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if subprocess.run(["pg_isready", "-h", "127.0.0.1", "-p", "5432", "-q"]).returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError("PostgreSQL did not come back")


def board_version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "ops-database-away")


ON_POSTGRESQL = os.environ.get("DATABASE_URL", "").startswith("postgres") and Path("/etc/postgresql").is_dir()


@pytest.mark.skipif(not ON_POSTGRESQL, reason="stops and starts the machine's PostgreSQL")
@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.alone
@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
def test_a_move_made_while_postgresql_restarts_lands_once_it_is_back(page: Page, static_root, server_log):
    game, alice, _ = two_players()
    server_errors: list[str] = []
    page.on("response", lambda r: server_errors.append(f"{r.status} {r.url}") if r.status >= 500
            and r.status != 503 else None)
    refused: list[str] = []
    page.on("response", lambda r: refused.append(r.url) if r.status == 503 else None)

    with Site(1, static_root, server_log, env={"DB_POOL_MAX": "20"}) as site:  # pooled, as make serve runs
        base = site.urls[0]
        page.context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": base}])
        page.goto(f"{base}/games/{game.pk}/")
        expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=WAIT_MS)
        seen = board_version(page)

        connections.close_all()  # the test's own connection dies with the server
        postgresql("stop")
        try:
            page.get_by_role("button", name="Cut at card 20").click(position={"x": 6, "y": 20})
            unsent = page.locator("#unsent")
            expect(unsent).to_be_visible(timeout=WAIT_MS)
            expect(unsent).to_contain_text("Not sent yet")
            assert refused, "the move was not answered 503 while the database was away"
            assert board_version(page) == seen
        finally:
            postgresql("start")
        postgresql_ready()
        # The kept move goes by itself, within seconds of the database returning, and lands once.
        page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) > v",
                               arg=seen, timeout=RESUME_MS)
        # The player is told it went, and the line clears by itself (moves.js: after 6 s).
        expect(page.locator("#unsent")).to_have_text("Your move was sent.")
        expect(page.locator("#unsent")).to_be_hidden(timeout=10000)
        body = page.locator("body").inner_text()
        assert "Traceback" not in body and "Server Error" not in body
        connections.close_all()
        game = Game.objects.get(pk=game.pk)
        cuts = Move.objects.filter(game=game, seat=0, action__type="cut_for_deal")
        assert cuts.count() == 1
        assert_log_is_whole(game)
    assert not server_errors, server_errors
    wait_for_other_sessions_to_end()


def test_a_pooled_site_checks_each_connection_and_waits_a_second_at_a_time():
    from tests.ops.test_production import production_settings

    s = production_settings(DB_POOL_MAX="20")
    assert s["DATABASE"] == "cribsite.postgresql"
    pool = s["DB_OPTIONS"]["pool"]
    assert pool["timeout"] == 1.0 and pool["reconnect_timeout"] <= 5 and pool["max_size"] == 20
