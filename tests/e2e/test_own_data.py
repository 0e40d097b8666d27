"""A player's own data in Chromium: the profile's download and delete controls at desktop and phone
widths, the download itself, and deleting the account to the page that says it is done."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.e2e.helpers import PASSWORD, screenshot, serious_axe_violations, sign_up
from tests.history.helpers import finish_between, finish_vs_computer
from tests.play.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


def test_download_my_data_then_delete_my_account(live_daphne: str, page: Page, tmp_path):
    sign_up(page, live_daphne, "leaver")
    leaver = get_user_model().objects.get(username="leaver")
    # A profile with something on it: a game against the computer and one against a person.
    finish_vs_computer(leaver, seed=2)
    finish_between(leaver, make_user("stayer"), seed=3)

    page.get_by_role("navigation", name="Main").get_by_role("link", name="leaver").click()
    account = page.get_by_role("region", name="Your account")
    expect(account.get_by_role("link", name="Download my data")).to_be_visible()
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        account.scroll_into_view_if_needed()
        screenshot(page, f"own-data-profile-{name}")
        assert serious_axe_violations(page) == []

    with page.expect_download() as download_info:
        account.get_by_role("link", name="Download my data").click()
    download = download_info.value
    assert download.suggested_filename == "cribbage-hall-leaver.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["account"]["username"] == "leaver" and len(data["games"]) == 2

    account.get_by_role("link", name="Delete my account").click()
    expect(page.get_by_role("heading", name="Delete your account")).to_be_visible()
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"own-data-delete-{name}")
        assert serious_axe_violations(page) == []

    # Without the tick nothing happens, and the page says why.
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_text("Tick the box to confirm")).to_be_visible()
    screenshot(page, "own-data-delete-unticked-phone")
    assert serious_axe_violations(page) == []

    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_label("I understand").check()
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("heading", name="Your account is deleted")).to_be_visible()
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("button", name="Menu").click()  # a phone folds the links behind it
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    screenshot(page, "own-data-deleted-phone")
    assert serious_axe_violations(page) == []
    leaver.refresh_from_db()
    assert not leaver.is_active
    assert page.goto(live_daphne + "/accounts/u/leaver/").status == 404
