from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import serious_axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_page_opens_a_websocket(live_daphne: str, page: Page):
    page.goto(live_daphne + "/")
    expect(page.get_by_role("heading", name="Play cribbage online")).to_be_visible()
    expect(page.locator("#ws-status")).to_have_attribute("data-state", "open", timeout=15000)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_home_page_has_no_serious_accessibility_problem(live_daphne: str, page: Page, width: int):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_daphne + "/")
    assert serious_axe_violations(page) == []
