"""A table of four in Chromium: one person and three computers, partners across, to the end."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.e2e.helpers import phase_and_version, screenshot, sign_up
from tests.e2e.test_play_computer import _click_if_enabled

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_one_person_and_three_computers_play_a_table_of_four(live_daphne: str, page: Page):
    page.set_default_timeout(15000)
    sign_up(page, live_daphne, "fourhanded")
    page.get_by_label("Players").select_option("4")
    for n in (2, 3, 4):
        page.locator(f"#id_table-seat_{n - 1}").select_option("easy")
    page.locator("section[aria-labelledby=table-h] summary").click()  # the house rules fold away
    page.locator("#id_table-target").select_option("61")
    page.get_by_role("button", name="Open the table").click()

    expect(page.locator(".seat--opponent")).to_have_count(3)
    expect(page.locator(".seat--opponent .badge", has_text="Partner")).to_have_count(1)
    expect(page.get_by_text("Cut for deal: pick any card")).to_be_visible()

    board = page.locator("#board")
    for _ in range(600):
        if page.locator("section.result").count():
            break
        phase, before = phase_and_version(board)
        if "phase-cut" in phase:  # equal low cards: everyone cuts again
            free = page.locator(".cut-deck button.fan__card:not([disabled])")
            if free.count():
                # A computer's cut may redraw the board under the pointer: then look again.
                with contextlib.suppress(PlaywrightError):
                    free.first.click(position={"x": 6, "y": 20}, force=True, timeout=5000)
            expect(board).not_to_have_attribute("data-version", before)  # a cut landed, any player's
            continue
        if "phase-discard" in phase and page.get_by_role("checkbox").count() == 5:
            # Let the three computers lay away first, so the board is not redrawn under the pointer.
            expect(page.locator(".crib h3")).to_contain_text("(3)")
            expect(page.locator(".discard-fieldset legend")).to_contain_text("one card")
            page.get_by_role("checkbox").nth(0).check()
            _click_if_enabled(page, page.get_by_role("button", name="Lay away to the crib"))
            continue
        if "phase-play" in phase:
            if _click_if_enabled(page, page.get_by_role("button", name="Go", exact=True)):
                continue
            if _click_if_enabled(page, page.locator(".play-form button.playable:not([disabled])")):
                continue
        if "phase-starter" in phase and _click_if_enabled(page, page.locator(".cut-starter-form button")):
            continue
        if "phase-show" in phase and _click_if_enabled(page, page.get_by_role("button", name="Next hand")):
            continue
        # Nothing for the player to do: a computer's move (or an answer) is on its way.
        expect(board).not_to_have_attribute("data-version", before)
    else:
        pytest.fail("the table did not finish")

    screenshot(page, "four-players-over")
    headline = page.locator("section.result h2")
    winners = re.compile(r"(You & Computer 2 \(easy\) win|Computer 1 \(easy\) & Computer 3 \(easy\) win)")
    expect(headline).to_contain_text(winners)
    # One peg track per partnership, named for both partners.
    expect(page.locator(".cribbage-board")).to_contain_text("You & Computer 2 (easy)")
