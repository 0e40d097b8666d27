"""The site as an installed app in Chromium: the service worker registers for the whole site and
keeps only the offline page and its static files; with the network gone any page, a game's board
included, shows the offline page and never a board kept from before; the network back, "Try again"
brings the board from the server. At a laptop's and a phone's size. And a push message becomes a
notice."""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import computer_game, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

KEPT_URLS = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) kept.push(new URL(request.url).pathname);
  }
  return kept;
}"""

# The notice the worker shows, asked for until it is there, at most 3 s.
SHOWN_NOTICE = """async () => {
  const reg = await navigator.serviceWorker.ready;
  for (let tries = 0; tries < 60; tries++) {
    const shown = await reg.getNotifications();
    if (shown.length) return {title: shown[0].title, body: shown[0].body, data: shown[0].data};
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}"""


@pytest.mark.parametrize(("name", "viewport"), [("laptop", {"width": 1280, "height": 720}),
                                                ("phone", {"width": 390, "height": 844})])
def test_offline_a_game_shows_the_offline_page_never_a_kept_board(browser: Browser, live_daphne: str,
                                                                  name: str, viewport: dict):
    ann = make_user(f"ann{name}")
    game_url = live_daphne + reverse("game", args=[computer_game(ann).pk])
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(ann), "url": live_daphne}])
    page = context.new_page()
    page.goto(game_url)
    expect(page.locator("#board")).to_be_visible()
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).scope") == live_daphne + "/"
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    kept = page.evaluate(KEPT_URLS)
    assert "/offline/" in kept
    assert all(url == "/offline/" or url.startswith("/static/") for url in kept), kept

    context.set_offline(True)
    page.goto(f"{live_daphne}/rules/")
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    page.goto(game_url)
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(page.locator("#board")).to_have_count(0)
    assert page.url == game_url
    assert serious_axe_violations(page) == []
    screenshot(page, f"offline-page-{name}", full_page=False)

    # The network back, "Try again" loads the same address: the board, fresh from the server.
    context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.locator("#board")).to_be_visible()
    assert page.url == game_url
    context.close()


def test_a_push_shows_the_notice_with_its_page(browser: Browser, live_daphne: str):
    """A push message handed to the service worker as the push service would (Chromium's DevTools
    protocol delivers it): the worker shows the notice, with the page a click opens."""
    context = browser.new_context(permissions=["notifications"])
    page = context.new_page()
    page.goto(f"{live_daphne}/rules/")
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    cdp = context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")  # reports the registrations there are, as events
    ours = []
    deadline = time.monotonic() + 10
    while not ours and time.monotonic() < deadline:
        # The sync API hands the session's events to their handlers only while a call waits: a frame.
        page.evaluate("() => new Promise(requestAnimationFrame)")
        ours = {r["registrationId"] for r in registrations
                if r["scopeURL"] == live_daphne + "/" and not r["isDeleted"]}
    [registration_id] = ours
    notice = {"title": "Your turn", "body": "bob played the Five of hearts", "url": "/games/12/"}
    cdp.send("ServiceWorker.startWorker", {"scopeURL": live_daphne + "/"})
    shown = None
    # Handed over up to three times: the protocol can lose a message given to a worker as it starts.
    for _ in range(3):
        cdp.send("ServiceWorker.deliverPushMessage",
                 {"origin": live_daphne, "registrationId": registration_id, "data": json.dumps(notice)})
        shown = page.evaluate(SHOWN_NOTICE)
        if shown:
            break
    assert shown == {"title": "Your turn", "body": notice["body"], "data": {"url": "/games/12/"}}
    context.close()
