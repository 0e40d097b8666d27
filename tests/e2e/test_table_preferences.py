"""The table preferences on the account page: both switches, saved for the account, at a laptop's
and a phone's size."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games.accounts.models import TablePreferences
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.mark.parametrize(("name", "viewport"), [("laptop", {"width": 1280, "height": 720}),
                                                ("phone", {"width": 390, "height": 844})])
def test_the_account_page_keeps_the_table_preferences(browser: Browser, live_daphne: str, name: str,
                                                      viewport: dict):
    ann = make_user(f"ann{name}")
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(ann), "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/accounts/u/{ann.username}/")
    panel = page.locator(".account-option", has=page.get_by_role("heading", name="At the table"))
    sound = panel.get_by_role("checkbox", name="Sound")
    motion = panel.get_by_role("checkbox", name="Animations")
    expect(sound).not_to_be_checked()
    expect(motion).to_be_checked()
    sound.check()
    motion.uncheck()
    panel.scroll_into_view_if_needed()
    screenshot(page, f"account-table-preferences-{name}", full_page=False)
    panel.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Table preferences saved.")).to_be_visible()
    prefs = TablePreferences.objects.get(user=ann)
    assert (prefs.sound, prefs.motion) == (True, False)
    expect(sound).to_be_checked()
    expect(motion).not_to_be_checked()
    assert serious_axe_violations(page) == []
    context.close()
