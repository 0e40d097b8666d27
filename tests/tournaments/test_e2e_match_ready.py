"""In Chromium: an entrant's open lobby shows their new tournament match the moment the director
starts the event, with "Your match is ready" and the board's link, without a reload. Photographed
at 1280x720 and 390x844."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, expect

from games.tournaments.models import Tournament
from tests.e2e.helpers import screenshot, serious_axe_violations

from .helpers import make_players, make_tournament
from .test_e2e_desk import _signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


def test_the_new_match_appears_in_the_open_lobby(live_daphne: str, browser: Browser):
    staff = get_user_model().objects.create_superuser("td", email="td@example.com", password=None)
    players = make_players(2)
    t = make_tournament(players, name="Friday Pairs", format=Tournament.Format.ROUND_ROBIN)
    lobbies = {size: _signed_in(browser, live_daphne, players[0], size_) for size, size_ in SIZES.items()}
    desk = _signed_in(browser, live_daphne, staff, SIZES["laptop"])
    try:
        pages = {}
        for size, context in lobbies.items():
            page = context.new_page()
            page.goto("/lobby/")
            expect(page.get_by_text("No games in progress.")).to_be_visible()
            page.wait_for_function("() => document.querySelector('[ws-connect]')?.['htmx-internal-data']"
                                   "?.webSocket?.socket?.readyState === 1")
            page.evaluate("window.__notReloaded = true")
            pages[size] = page
        director = desk.new_page()
        director.goto(reverse("admin:tournaments_tournament_desk", args=[t.pk]))
        director.get_by_label("Yes: start the tournament now").check()
        director.get_by_role("button", name="Start the tournament").click()
        expect(director.locator(".messagelist")).to_contain_text("Started")
        for size, page in pages.items():
            notice = page.locator(".organiser-notice").filter(has_text="Your match is ready")
            expect(notice).to_contain_text("Friday Pairs")
            expect(notice).to_contain_text("Your match is ready: Round 1, against p2.")
            expect(notice.get_by_role("link", name="Open the board")).to_have_attribute(
                "href", f"/games/{t.matches.get().game_id}/")
            expect(page.locator("#in-progress-h + table")).to_contain_text("p2")
            assert page.evaluate("window.__notReloaded") is True
            assert serious_axe_violations(page) == []
            screenshot(page, f"lobby-match-ready-{size}", full_page=False)
        board = pages["phone"]
        board.locator(".organiser-notice").get_by_role("link", name="Open the board").click()
        expect(board.locator("#board")).to_be_visible()
    finally:
        for context in (*lobbies.values(), desk):
            context.close()
