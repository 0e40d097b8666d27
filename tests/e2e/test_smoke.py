from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_page_opens_a_websocket_for_a_player(live_daphne: str, page: Page):
    page.goto(live_daphne + "/")
    expect(page.get_by_role("heading", name="Play cribbage online")).to_be_visible()
    expect(page.locator("#ws-status")).to_have_count(0)  # nothing is live for a visitor
    page.context.add_cookies([{"name": "sessionid", "value": session_key(make_user("alice")),
                               "url": live_daphne}])
    page.goto(live_daphne + "/")
    expect(page.locator("#ws-status")).to_have_attribute("data-state", "open", timeout=15000)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_home_page_has_no_serious_accessibility_problem(live_daphne: str, page: Page, width: int):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_daphne + "/")
    assert serious_axe_violations(page) == []


@pytest.mark.parametrize("width", [390, 1280])
def test_how_to_play_counts_a_hand_in_place(live_daphne: str, page: Page, width: int):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_daphne + "/")
    page.get_by_role("link", name="Learn how to play").click()
    expect(page.get_by_role("heading", name="How to play cribbage")).to_be_visible()
    assert serious_axe_violations(page) == []
    page.get_by_role("textbox", name="Hand (four cards)").fill("5h 5c 5s jd")
    page.get_by_role("textbox", name="Starter").fill("5♦")
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_test_id("count-total")).to_have_text("29")
    expect(page).to_have_url(re.compile(r"/rules/\?hand=5h"))
    expect(page.get_by_role("heading", name="How to play cribbage")).to_be_visible()  # swapped in place
    page.get_by_role("textbox", name="Starter").fill("5h")
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_text("Five of hearts is already in the hand.")).to_be_visible()
    expect(page.get_by_test_id("count-total")).to_have_count(0)
    assert serious_axe_violations(page) == []
    page.get_by_role("link", name="No crib flush without the starter").click()
    expect(page.get_by_test_id("count-total")).to_have_text("0")
    expect(page.get_by_label("Count it as a crib")).to_be_checked()


def test_the_menu_fits_a_phone_behind_a_button_and_names_the_rules(live_daphne: str, page: Page):
    from tests.e2e.helpers import screenshot

    page.context.add_cookies([{"name": "sessionid", "value": session_key(make_user("a_long_username_here")),
                               "url": live_daphne}])
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live_daphne + "/lobby/")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("button", name="Menu")).to_be_hidden()
    expect(nav.get_by_role("link", name="Rules")).to_be_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_daphne + "/lobby/")
    menu = nav.get_by_role("button", name="Menu")
    expect(menu).to_be_visible()
    expect(nav.get_by_role("link", name="Rules")).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    for name in ("Lobby", "My games", "Leaderboard", "Tournaments", "Rules", "a_long_username_here"):
        link = nav.get_by_role("link", name=name)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, name  # nothing cut off at the edge
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(page, "menu-phone-open")
    assert serious_axe_violations(page) == []
