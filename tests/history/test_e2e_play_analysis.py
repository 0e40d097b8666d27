"""In Chromium at 1280x720 and on a 390x844 phone: the record asks for its pegging analysis once it
has loaded, and shows what each card laid cost in points and in the chance to win."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import log_in, screenshot, serious_axe_violations
from tests.history.helpers import finish_vs_computer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 720}}


@pytest.mark.parametrize("size", list(SIZES))
def test_the_record_shows_what_each_card_cost(browser: Browser, live_daphne: str, alice, size: str):
    game = finish_vs_computer(alice, seed=3)
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    log_in(page, live_daphne, alice)
    page.goto(f"{live_daphne}/games/{game.pk}/record/")
    panel = page.locator("#play-analysis")
    expect(panel.locator("table")).to_be_visible(timeout=20000)
    expect(panel.locator(".analysis-totals")).to_contain_text("to win")
    expect(panel.locator("tbody tr").first).to_be_visible()
    panel.locator("h2").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('play-analysis').scrollIntoView({block: 'start'})")
    screenshot(page, f"record-play-analysis-{size}", full_page=False)
    # The table scrolls inside its own frame on a phone; the page itself does not scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert serious_axe_violations(page) == []
    context.close()
