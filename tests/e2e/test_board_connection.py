"""A move that cannot reach the server is never dropped in silence, and the presence line keeps
time by itself: how long ago a player left, and the countdown to the claim of a win."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from games.play.models import Connection, Game
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.e2e.test_board_layout import DESKTOP, PHONE, open_board
from tests.live.support import session_key
from tests.play.factories import human_game, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def test_a_move_the_server_never_got_is_said_and_sent_again(browser: Browser, live_daphne: str):
    page = open_board(browser, live_daphne, DESKTOP)
    version = int(page.locator("#board").get_attribute("data-version"))
    act = re.compile(r"/games/\d+/act/")
    page.route(act, lambda route: route.abort("connectionfailed"))
    # The fanned deck overlaps: click the visible edge of a card the computer has not taken.
    page.locator(".cut-deck button.fan__card:not([disabled])").nth(20).click(position={"x": 6, "y": 20})
    note = page.locator("#unsent")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not sent yet: the server cannot be reached")
    # The request that failed says more than the open socket: the status does not say "Connected".
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "open")
    screenshot(page, "board-not-sent-desktop")
    page.unroute(act)
    # Sent again by itself, and the board moves on: the computer cut too, so the deal is made.
    page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) > v", arg=version,
                           timeout=15000)
    expect(note).to_have_text("Your move was sent.")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(note).to_be_hidden(timeout=10000)


@pytest.mark.parametrize(("name", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_the_presence_line_ticks_by_itself(browser: Browser, live_daphne: str, settings, name, viewport):
    alice, bob = make_user(f"alice{name}"), make_user(f"bob{name}")
    game: Game = human_game(alice, bob)
    # Bob's socket went silent five minutes ago; the claim waits three from when his turn began.
    Connection.objects.create(game=game, user=bob, channel_name=f"gone-{name}",
                              last_seen=timezone.now() - timedelta(minutes=5))
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=170))
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/games/{game.pk}/")
    away = page.locator("#presence .presence__seat--away")
    expect(away).to_contain_text(f"bob{name} has left the table (2 minutes ago)")
    countdown = page.locator("#presence time[data-countdown]")
    first = countdown.inner_text()
    page.wait_for_timeout(2200)
    assert countdown.inner_text() != first  # it counts down on the page
    screenshot(page, f"board-presence-{name}")
    # When the countdown runs out the line is asked for again and offers the claim.
    expect(page.get_by_role("button", name="Claim the win")).to_be_visible(timeout=20000)
    assert serious_axe_violations(page) == []
