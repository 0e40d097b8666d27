"""The channel layer is unreachable for a while, seen from a real browser.

The site runs as in production (``cribsite.serve``, DEBUG off) but with ``REDIS_URL`` pointing at a
closed port: the board's socket cannot join its group, so the page shows "Reconnecting…", while
moves still commit and are answered over HTTP. Then the site comes back with a working layer on
the same port: the page reconnects by itself and shows the current board, moves made meanwhile
included, and pushes flow again. At no point does the player see an error page or a traceback.
"""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect

from games.engine.game import legal_actions
from games.play.models import Game
from tests.live.support import HttpPlayer, as_form, load, session_key, two_players
from tests.ops.support import Site, closed_port, http_get, wait_for_other_sessions_to_end
from tests.play.factories import fixed_secrets

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.alone, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(240)]

WAIT_MS = 20000


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "ops-outage")


def board_version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def wait_for_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "(v) => { const b = document.querySelector('#board'); return b && Number(b.dataset.version) >= v; }",
        arg=version, timeout=WAIT_MS,
    )


def bob_moves(base: str, session: str, game: Game, rng: random.Random) -> None:
    """Bob (seat 1) makes a legal move over HTTP; it commits."""
    state = load(game)
    assert 1 in state.to_act, state.to_act
    action = rng.choice(legal_actions(state, 1))
    status, html = HttpPlayer(base, session).act(game.pk, game.version, as_form(action))
    assert status == 200, html[:300]
    game.refresh_from_db()


def assert_no_error_shown(page: Page) -> None:
    text = page.locator("body").inner_text()
    for sign in ("Traceback", "Server Error", "Exception", "(500)"):
        assert sign not in text, f"the page shows {sign!r}: {text[:500]}"


def test_the_board_survives_a_channel_layer_outage(page: Page, static_root, server_log, redis_url):
    game, alice, bob = two_players()
    rng = random.Random(1)
    alice_session, bob_session = session_key(alice), session_key(bob)
    server_errors: list[str] = []
    page.on("response", lambda r: server_errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)

    down = {"REDIS_URL": f"redis://127.0.0.1:{closed_port()}/0"}
    with Site(1, static_root, server_log, env=down) as site:
        base = site.urls[0]
        # The health endpoint tells the operator what is wrong.
        status, body = http_get(base + "/health/")
        assert status == 503
        health = json.loads(body)
        assert health["database"]["ok"] is True and health["channel_layer"]["ok"] is False

        page.context.add_cookies([{"name": "sessionid", "value": alice_session, "url": base}])
        page.goto(f"{base}/games/{game.pk}/")
        connection = page.locator("#connection")
        expect(connection).to_have_attribute("data-state", "closed", timeout=WAIT_MS)
        expect(connection).to_contain_text("Reconnecting…")
        assert_no_error_shown(page)

        # Alice cuts on the page: the answer to her POST redraws the board.
        seen = board_version(page)
        page.get_by_role("button", name="Cut at card 20").click(position={"x": 6, "y": 20})  # fanned cards
        wait_for_version(page, seen + 1)
        game.refresh_from_db()
        assert game.version == seen + 1

        # Bob moves over HTTP: committed, but no push can reach Alice's page.
        # The page's next try at a socket (refused while the layer is away) had its chance to bring
        # Bob's move, and did not.
        tried = page.evaluate_handle("() => new Promise(r => document.addEventListener('socket:close', r,"
                                     " {once: true}))")
        bob_moves(base, bob_session, game, rng)
        page.evaluate("(tried) => tried", tried)
        assert board_version(page) == game.version - 1
        expect(connection).to_have_attribute("data-state", "closed")
        assert_no_error_shown(page)
        port = site.port

    # The layer is back (Redis, or the in-memory layer of a one-process site).
    up = {"REDIS_URL": redis_url or None}
    with Site(1, static_root, server_log, port=port, env=up) as site:
        assert http_get(site.urls[0] + "/health/")[0] == 200
        expect(connection).to_have_attribute("data-state", "open", timeout=WAIT_MS)
        expect(connection).to_contain_text("Connected")
        # The reconnect brought the current board, Bob's move included.
        wait_for_version(page, game.version)
        assert board_version(page) == game.version

        # And pushes flow again: Bob's next move reaches Alice's page without her doing anything.
        if 1 in load(game).to_act:
            bob_moves(site.urls[0], bob_session, game, rng)
            wait_for_version(page, game.version)
        assert_no_error_shown(page)
    assert not server_errors, server_errors
    # The workers' pooled connections outlive them by a moment: the test database is dropped next.
    wait_for_other_sessions_to_end()
