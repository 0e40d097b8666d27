"""In Chromium: an entrant's open lobby shows their new tournament match the moment it is made, with
"Your match is ready" and the board's link, without a reload. The round before ends with a
resignation posted to the live server, so the next round opens there and its push leaves the process
that committed it. Photographed at 1280x720 and 390x844."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games.play.models import Game
from tests.e2e.helpers import screenshot, serious_axe_violations

from .helpers import my_active_match, my_match_in_round_one
from .test_e2e_live_scores import _player, _post_move

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
SOCKET_OPEN = ("() => LiveSocket.socketOf(document.querySelector('[data-socket]'))"
               "?.readyState === WebSocket.OPEN")


def test_the_new_match_appears_in_the_open_lobby(live_daphne: str, browser: Browser):
    t, me, mine, opponent_user = my_match_in_round_one("Friday Pairs")
    lobbies = {size: _player(browser, live_daphne, me) for size in SIZES}
    opponent = _player(browser, live_daphne, opponent_user)
    try:
        pages = {}
        for size, context in lobbies.items():
            page = context.new_page()
            page.set_viewport_size(SIZES[size])
            page.goto("/lobby/")
            page.wait_for_function(SOCKET_OPEN)
            page.evaluate("window.__notReloaded = true")
            pages[size] = page
        # The opponent resigns on the live server: round 1 is over and round 2 opens there.
        game = Game.objects.get(pk=mine.game_id)
        _post_move(opponent, game, {"type": "resign", "version": str(game.version)})
        for size, page in pages.items():
            notice = page.locator(".organiser-notice").filter(has_text="Your match is ready")
            expect(notice).to_contain_text("Friday Pairs")
            expect(notice).to_contain_text("Your match is ready: Round 2, against")
            nxt = my_active_match(t, me)
            expect(notice.get_by_role("link", name="Open the board")).to_have_attribute(
                "href", f"/games/{nxt.game_id}/")
            assert page.evaluate("window.__notReloaded") is True
            assert serious_axe_violations(page) == []
            screenshot(page, f"lobby-match-ready-{size}", full_page=False)
        phone = pages["phone"]
        phone.locator(".organiser-notice").get_by_role("link", name="Open the board").click()
        expect(phone.locator("#board")).to_be_visible()
    finally:
        for context in (*lobbies.values(), opponent):
            context.close()
