"""A board page and its own moves: the answer carries the new board, so its socket is not pushed it.

The page's htmx requests send the tab id its socket connected with; and if a move's answer is lost
on the way back (the move did commit), the page fetches the board again instead of going stale.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, Route, expect

from games.engine.game import legal_actions
from tests.live.support import HttpPlayer, as_form, load, session_key, two_players

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

WAIT_MS = 15000


def wait_for_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "(v) => { const b = document.querySelector('#board'); return b && Number(b.dataset.version) >= v; }",
        arg=version, timeout=WAIT_MS,
    )


def test_a_lost_answer_is_healed_and_the_page_names_its_tab(live_daphne: str, page: Page):
    game, alice, bob = two_players()
    page.context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": live_daphne}])
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{live_daphne}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=WAIT_MS)
    tab = re.search(r"[?&]tab=([\w-]+)", sockets[-1]).group(1)

    # The answer to Alice's cut never reaches her page (the move commits on the server).
    lost: list[dict] = []

    def lose_the_answer(route: Route) -> None:
        response = route.fetch()
        lost.append({"status": response.status, "tab": route.request.headers.get("x-board-tab")})
        route.abort("connectionreset")

    page.route("**/games/*/act/", lose_the_answer, times=1)
    seen = int(page.locator("#board").get_attribute("data-version"))
    page.locator(".cut-deck button.fan__card:not([disabled])").nth(20).click(position={"x": 6, "y": 20})
    wait_for_version(page, seen + 1)  # fetched again: the socket was spared this push
    assert lost == [{"status": 200, "tab": tab}]
    game.refresh_from_db()
    assert int(page.locator("#board").get_attribute("data-version")) == game.version

    # The other player's moves still arrive over the socket.
    action = random.Random(3).choice(legal_actions(load(game), 1))  # Bob has still to cut
    status, _html = HttpPlayer(live_daphne, session_key(bob)).act(game.pk, game.version, as_form(action))
    assert status == 200
    wait_for_version(page, game.version + 1)
