from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_page_opens_a_websocket(live_daphne: str, page: Page):
    page.goto(live_daphne + "/")
    expect(page.get_by_role("heading", name="Play cribbage online")).to_be_visible()
    expect(page.locator("#ws-status")).to_have_attribute("data-state", "open", timeout=15000)
