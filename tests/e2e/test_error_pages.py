"""The error pages and the rules page's counting rules in Chromium, at 1280x720 and 390x844: a
refusal says why with the site around it, a missing page offers a way on, today's puzzle not out
yet says when it will be, and none scrolls sideways on a phone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, expect

from games.puzzles import clock as puzzle_clock
from games.tournaments.models import Tournament
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.pages.error_urls import SECRET
from tests.tournaments.helpers import make_players, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.urls("tests.pages.error_urls")]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def test_error_pages_and_the_counting_rules(live_daphne: str, browser: Browser, monkeypatch):
    # The first seconds of a day whose puzzle the midnight job has not chosen yet.
    monkeypatch.setattr(puzzle_clock, "now", lambda: datetime(2026, 3, 10, 0, 0, 20, tzinfo=UTC))
    clerk = get_user_model().objects.create_user("clerk", password=None, is_staff=True)
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    client = Client()
    client.force_login(clerk)
    errors_client = Client(raise_request_exception=False)
    errors_client.force_login(clerk)
    for size, viewport in SIZES.items():
        context = browser.new_context(base_url=live_daphne, viewport=viewport)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_daphne,
                              "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
        page = context.new_page()
        try:
            # A staff member who may not run tournaments, at a desk: the refusal's own words.
            response = page.goto(reverse("admin:tournaments_tournament_desk", args=[t.pk]))
            assert response.status == 403
            expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
            expect(page.get_by_text("You may not run tournaments.")).to_be_visible()
            expect(page.get_by_role("navigation", name="Main")).to_be_attached()
            assert page.evaluate(NO_SIDEWAYS) and serious_axe_violations(page) == []
            screenshot(page, f"error-403-{size}", full_page=False)

            # The live server runs with DEBUG on, which shows Django's own 404 and 500 pages: the
            # site's are drawn here as the test process serves them (DEBUG off) on the live origin.
            for status, path, heading in ((404, "/fail/404/", "Nothing here"),
                                          (500, "/fail/500/", "Something went wrong on our side")):
                served = errors_client.get(path)
                assert served.status_code == status
                page.set_content(served.content.decode())
                expect(page.get_by_role("heading", name=heading)).to_be_visible()
                assert SECRET not in page.content()
                assert page.evaluate(NO_SIDEWAYS) and serious_axe_violations(page) == []
                screenshot(page, f"error-{status}-{size}", full_page=False)

            served = errors_client.get("/puzzles/2026-03-10/")
            assert served.status_code == 503 and served["Retry-After"] == "60"
            page.set_content(served.content.decode())
            expect(page.get_by_role("heading", name="Today's discard puzzle")).to_be_visible()
            expect(page.get_by_text("Today's deal is being chosen.")).to_be_visible()
            assert page.evaluate(NO_SIDEWAYS) and serious_axe_violations(page) == []
            screenshot(page, f"puzzle-coming-{size}", full_page=False)

            page.goto("/rules/#house-rules")
            counting = page.locator("dd").filter(has_text="Claiming more is an over-count")
            expect(counting).to_be_visible()
            counting.scroll_into_view_if_needed()
            assert page.evaluate(NO_SIDEWAYS)
            screenshot(page, f"rules-counting-{size}", full_page=False)
        finally:
            context.close()
