"""The channel layer (Redis) goes for ten seconds in the middle of a game: every board catches up.

Production as it runs: two daphne workers, Alice's page on one and Bob's on the other, so every push
crosses Redis. Redis (a private ``redis-server``) is stopped; moves still go through over HTTP, but
their pushes are lost: the boards follow them anyway, a little later (each worker reads its games'
versions every couple of seconds while the layer is away), and each page says just that: live
updates are delayed (the heartbeats say pushes do not reach its socket), never "Connected", never a
red "Reconnecting…" (nothing is wrong with the page's own connection). A move made just before Redis
returns is on every board within two seconds of its return, with nothing done on the page, the pages
say "Connected" again, and pushes flow again. Each worker logs the outage twice: as it begins and
as it ends.
"""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.game import legal_actions
from games.play.models import Game
from tests.e2e import watch
from tests.e2e.helpers import screenshot
from tests.live.support import HttpPlayer, as_form, load, session_key, two_players
from tests.ops.support import PrivateRedis, Site, wait_for_other_sessions_to_end
from tests.play.factories import fixed_secrets

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.alone, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(240)]

OUTAGE_SECONDS = 10
CURRENT_WITHIN = 2.0
FOLLOWS_WITHIN_MS = 5000  # during the outage: the watch's poll, every two seconds, and a render


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "ops-layer-outage")


@pytest.fixture
def redis_server():
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def version_of(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def move(game: Game, players: dict[int, HttpPlayer], rng: random.Random) -> None:
    """Whoever is to act makes a legal move over HTTP; it commits."""
    state = load(game)
    seat = min(state.to_act)
    status, html = players[seat].act(game.pk, game.version, as_form(rng.choice(legal_actions(state, seat))))
    assert status == 200, html[:300]
    game.refresh_from_db()


def wait_current(page: Page, version: int, timeout_ms: int = 20000) -> None:
    page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) >= v",
                           arg=version, timeout=timeout_ms)


def test_every_board_is_current_within_two_seconds_of_the_layer_s_return(
    browser: Browser, static_root, server_log, redis_server: PrivateRedis
):
    game, alice, bob = two_players()
    rng = random.Random(3)
    with Site(2, static_root, server_log, env={"REDIS_URL": redis_server.url}) as site:
        users = {0: alice, 1: bob}
        bases = {0: site.urls[0], 1: site.urls[1]}  # a worker each: every push crosses the layer
        players = {seat: HttpPlayer(bases[seat], session_key(users[seat])) for seat in (0, 1)}
        pages = {}
        for seat, viewport in ((0, {"width": 1280, "height": 720}), (1, {"width": 390, "height": 844})):
            context = browser.new_context(viewport=viewport)
            cookie = {"name": "sessionid", "value": session_key(users[seat]), "url": bases[seat]}
            context.add_cookies([cookie])
            pages[seat] = context.new_page()
            pages[seat].goto(f"{bases[seat]}/games/{game.pk}/")
        for page in pages.values():
            expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=20000)
        move(game, players, rng)
        for page in pages.values():  # pushes cross the layer
            wait_current(page, game.version)

        redis_server.stop()
        stopped = {seat: watch.record(page, "#connection", "data-state") for seat, page in pages.items()}
        for page in pages.values():  # the pages know pushes are not coming: no "Connected"
            expect(page.locator("#connection")).to_have_attribute("data-state", "delayed", timeout=8000)
            expect(page.locator("#connection")).to_have_text("Live updates delayed")
        for _ in range(2):  # moves still go through over HTTP, and the boards follow them
            move(game, players, rng)
            for page in pages.values():
                wait_current(page, game.version, timeout_ms=FOLLOWS_WITHIN_MS)
        screenshot(pages[1], "board-layer-away-phone")
        screenshot(pages[0], "board-layer-away-desktop")
        for seat, page in pages.items():  # the outage lasts its ten seconds, on each page's clock
            watch.until_page_time(page, stopped[seat] + (OUTAGE_SECONDS - 0.5) * 1000)
        move(game, players, rng)  # its push is lost, and the return is what brings it
        for seat, page in pages.items():  # once it knew, never "Connected" nor "Reconnecting…" again
            said = watch.values(page, "#connection", "data-state", since=stopped[seat])
            assert set(said[said.index("delayed"):]) == {"delayed"}, said

        redis_server.start()
        back = time.monotonic()
        took = {}
        for seat, page in pages.items():
            wait_current(page, game.version)
            took[seat] = time.monotonic() - back
        assert max(took.values()) < CURRENT_WITHIN, took
        for page in pages.values():
            expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=5000)
            expect(page.locator("#connection")).to_have_text("Connected")
            assert version_of(page) == game.version
        screenshot(pages[0], "board-layer-back-desktop")

        # And pushes flow again, with nothing done on the pages.
        move(game, players, rng)
        for page in pages.values():
            wait_current(page, game.version, timeout_ms=5000)
        for page in pages.values():
            page.context.close()
    wait_for_other_sessions_to_end()
    # The outage in the log: one line as it began and one as it ended in each worker, no traceback
    # (the receive task, the lost pushes and heartbeats, the sockets that tried again meanwhile).
    log = server_log.read_text()
    assert log.count("channel layer unreachable") == 2 and log.count("channel layer back") == 2, log[-4000:]
    assert "Traceback" not in log, log[-4000:]
