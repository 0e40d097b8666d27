"""The lobby's first screen, at 1280x720 and on a 390x844 phone: a new game against the computer
or a friend, each with its button, above the fold; a list with nothing in it is one short line."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.e2e.test_board_fits import LAPTOP, PHONE, in_view, no_sideways_scroll, open_page
from tests.play.factories import computer_game, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("laptop", LAPTOP)])
def test_a_new_game_is_the_first_thing_in_the_lobby(browser: Browser, live_daphne: str, name: str,
                                                    viewport: dict):
    alice = make_user(f"alice-lobby-{name}")
    page = open_page(browser, live_daphne, alice, "/lobby/", viewport)
    expect(page.get_by_role("heading", name="Play the computer")).to_be_visible()
    screenshot(page, f"lobby-empty-{name}", full_page=False)
    no_sideways_scroll(page)
    for selector in ("#cpu-h", "section[aria-labelledby=cpu-h] button[type=submit]", "#seek-h",
                     "section[aria-labelledby=seek-h] button[type=submit]"):
        in_view(page, selector)
    # Nothing to list: each list is one line, its name and "none".
    empty = page.locator("#lobby-lists section.lobby-empty")
    assert empty.count() == 3
    for k in range(empty.count()):
        box = empty.nth(k).bounding_box()
        assert box["height"] <= 40, f"an empty list takes {box['height']:.0f} px"
    screenshot(page, f"lobby-empty-full-{name}")
    assert serious_axe_violations(page) == []
    page.context.close()


def test_a_game_in_progress_is_listed_in_full(browser: Browser, live_daphne: str):
    alice = make_user("alice-lobby-busy")
    computer_game(alice)
    page = open_page(browser, live_daphne, alice, "/lobby/", LAPTOP)
    rows = page.locator("section[aria-labelledby=in-progress-h] table tbody tr")
    expect(rows).to_have_count(1)
    expect(page.locator("section[aria-labelledby=in-progress-h]")).not_to_have_class("lobby-empty")
    screenshot(page, "lobby-in-progress-laptop")
    page.context.close()
