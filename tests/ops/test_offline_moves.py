"""A card played while the network is gone, and the server restarted meanwhile, lands exactly once;
and a board reconnects within two seconds of its server's return, however long it was away.

The site runs as in production (``cribsite.serve``, DEBUG off). Alice, on her turn, loses the network
(Playwright takes the page offline), plays a card, and the server is stopped and started again on
the same port while she is away. The page keeps the move and says so, its status says she is
offline (never "Connected"), and when the network is back the board reconnects within two seconds
and the move is sent: one Move in the log, the board moved on, the page says it was sent.
"""

from __future__ import annotations

import time
import urllib.request

import pytest
from playwright.sync_api import Browser, Page, expect

from games.play.models import Game, Move
from tests.e2e.helpers import screenshot
from tests.e2e.watch import now, record, until_page_time, values
from tests.live.support import session_key
from tests.ops.support import Site, wait_for_other_sessions_to_end
from tests.play.factories import GO_HANDS, GO_STARTER, act, fixed_secrets, human_game, make_user, stack

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.alone, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(240)]

DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
BACK_SECONDS = 2.0  # the board is connected again, and the move in, this soon after the network


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "ops-offline")


def alice_to_play() -> tuple[Game, object]:
    """The go deal after both lay away and Bob leads the King of hearts: Alice is to play."""
    alice, bob = make_user("alice"), make_user("bob")
    game = stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter=GO_STARTER)
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    act(game, bob, {"type": "play", "card": "KH"})
    game.refresh_from_db()
    return game, alice


def version_of(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def played_ten(game: Game) -> int:
    return Move.objects.filter(game=game, seat=0, action__type="play", action__card="TD").count()


def open_board(browser: Browser, base: str, game: Game, user, viewport: dict, *, clock: bool = False) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(user), "url": base}])
    page = context.new_page()
    if clock:
        page.clock.install()  # time flows as usual until the test moves it on
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=20000)
    return page


def play_the_ten_offline(page: Page) -> None:
    page.context.set_offline(True)
    connection = page.locator("#connection")
    expect(connection).to_have_attribute("data-state", "offline")
    expect(connection).to_have_text("Offline: waiting for the network…")
    page.get_by_role("button", name="Ten of diamonds").click()
    note = page.locator("#unsent")
    expect(note).to_contain_text("Not sent yet: you are offline")
    # The card is still in the hand, marked as waiting: nothing pretends it was played.
    expect(page.get_by_role("button", name="Ten of diamonds")).to_have_attribute("data-unsent", "")


def warm_up(base: str, game: Game, page: Page) -> None:
    """One GET of the board with the page's own session, from outside the (offline) page."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    request = urllib.request.Request(f"{base}/games/{game.pk}/", headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200


def back_online(page: Page, game: Game, seen: int, name: str) -> None:
    """The network returns: connected and the move in within BACK_SECONDS, made exactly once."""
    page.context.set_offline(False)
    back = time.monotonic()
    expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=10000)
    page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) > v", arg=seen,
                           timeout=10000)
    took = time.monotonic() - back
    expect(page.locator("#unsent")).to_have_text("Your move was sent.")
    screenshot(page, f"board-sent-after-outage-{name}")
    assert took < BACK_SECONDS, f"{took:.1f} s to reconnect and send the move"
    game.refresh_from_db()
    assert game.version == seen + 1 and version_of(page) == game.version
    assert played_ten(game) == 1
    # The board shows the card on the table, not in the hand.
    expect(page.get_by_role("button", name="Ten of diamonds")).to_have_count(0)


def test_a_card_played_through_ten_seconds_offline_and_a_restart_lands_once(
    browser: Browser, static_root, server_log
):
    game, alice = alice_to_play()
    with Site(1, static_root, server_log) as site:
        base, port = site.urls[0], site.port
        page = open_board(browser, base, game, alice, DESKTOP)
        seen = version_of(page)
        away = record(page, "#connection", "data-state")
        play_the_ten_offline(page)
        offline = now(page)
        screenshot(page, "board-offline-move-kept-desktop")
    # The server goes and comes back while Alice is away.
    with Site(1, static_root, server_log, port=port):
        assert played_ten(game) == 0
        until_page_time(page, away + 10000)  # ten seconds away in all; the page says so throughout
        assert set(values(page, "#connection", "data-state", since=offline)) == {"offline"}
        assert played_ten(game) == 0
        back_online(page, game, seen, "desktop")
        page.context.close()
    wait_for_other_sessions_to_end()


def test_a_card_played_through_a_minute_offline_and_a_restart_lands_once(
    browser: Browser, static_root, server_log
):
    """A minute away, on the page's clock: every timer of the page (the move's retries, the
    socket's reconnects and its watchdog) runs through the minute in order, while the test does not
    wait for it. The server neither sees nor needs the minute: it is restarted meanwhile."""
    game, alice = alice_to_play()
    with Site(1, static_root, server_log) as site:
        base, port = site.urls[0], site.port
        page = open_board(browser, base, game, alice, PHONE, clock=True)
        seen = version_of(page)
        play_the_ten_offline(page)
        screenshot(page, "board-offline-move-kept-phone")
        for _ in range(30):  # the first half of the minute with the server up
            page.clock.run_for(1000)
    with Site(1, static_root, server_log, port=port):
        # The page's minute is not the server's: it started a moment ago. It has its first board drawn
        # (templates compiled, a database connection) as a server up for half a minute would have.
        warm_up(base, game, page)
        for _ in range(30):  # the second half with a new server
            page.clock.run_for(1000)
        connection = page.locator("#connection")
        expect(connection).to_have_attribute("data-state", "offline")
        expect(page.locator("#unsent")).to_contain_text("Not sent yet: you are offline")
        assert played_ten(game) == 0
        back_online(page, game, seen, "phone")
        page.context.close()
    wait_for_other_sessions_to_end()


def test_the_board_reconnects_within_two_seconds_of_the_server_s_return(
    browser: Browser, static_root, server_log
):
    """Down for ten seconds: the page's retries have stopped growing long before (at a second)."""
    game, alice = alice_to_play()
    with Site(1, static_root, server_log) as site:
        base, port = site.urls[0], site.port
        page = open_board(browser, base, game, alice, DESKTOP)
    connection = page.locator("#connection")
    expect(connection).to_have_attribute("data-state", "closed")
    expect(connection).to_have_text("Reconnecting…")
    down = record(page, "#connection", "data-state")
    until_page_time(page, down + 10000)  # ten seconds away; the page says so throughout
    assert set(values(page, "#connection", "data-state", since=down)) == {"closed"}
    with Site(1, static_root, server_log, port=port):
        up = time.monotonic()  # the site answers HTTP from here
        expect(connection).to_have_attribute("data-state", "open", timeout=10000)
        took = time.monotonic() - up
        assert took < BACK_SECONDS, f"{took:.1f} s to reconnect"
        expect(connection).to_have_text("Connected")
        page.context.close()
    wait_for_other_sessions_to_end()
