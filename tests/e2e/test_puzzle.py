"""The daily discard puzzle in Chromium, as a visitor: pick two cards, answer, and read the results
swapped in place, at desktop and phone widths."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import Page, expect

from games.engine.cards import parse_card
from games.puzzles import services
from games.puzzles.models import Vote
from tests.e2e.helpers import screenshot, serious_axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
# A day long past for the live server, whatever its clock says: the page is the same as on its day,
# but for the note that it is past.
DAY = date(2024, 2, 29)
# The smallest target a finger hits reliably (WCAG 2.5.5 asks 44 CSS pixels).
TAP = 44


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_visitor_answers_the_puzzle(live_daphne: str, page: Page, size: str):
    page.set_viewport_size(SIZES[size])
    puzzle = services.puzzle_for(DAY)
    page.goto(f"{live_daphne}/puzzles/{DAY.isoformat()}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Discard puzzle")
    expect(page.get_by_text("Every split")).to_have_count(0)
    for card in puzzle.cards:
        box = page.get_by_label(parse_card(card).name, exact=True).bounding_box()
        assert box is not None and box["width"] >= TAP and box["height"] >= TAP, (card, box)
    screenshot(page, f"puzzle-question-{size}", full_page=False)
    assert serious_axe_violations(page) == []

    chosen = puzzle.table[1]["laid_away"].split()
    for card in chosen:
        page.get_by_label(parse_card(card).name, exact=True).check()
    page.get_by_role("button", name="Lay these two away").click()
    expect(page.get_by_role("heading", name="Every split")).to_be_visible()
    expect(page.locator("[data-split]")).to_have_count(15)
    expect(page.locator(".puzzle-row--chosen")).to_have_attribute("data-split", " ".join(chosen))
    assert page.url.endswith(f"/puzzles/{DAY.isoformat()}/")  # answered in place
    vote = Vote.objects.get()
    assert vote.laid_away == puzzle.table[1]["laid_away"] and vote.user is None
    screenshot(page, f"puzzle-answered-{size}")
    assert serious_axe_violations(page) == []

    # Reloaded, the browser is known: the results, no second form.
    page.reload()
    expect(page.get_by_role("heading", name="Every split")).to_be_visible()
    expect(page.get_by_role("button", name="Lay these two away")).to_have_count(0)

    # The visitor's record and the archive, reached from the puzzle's own links.
    page.get_by_role("link", name="Your record").click()
    expect(page.get_by_role("heading", name="Your discard puzzles")).to_be_visible()
    expect(page.locator(".puzzle-stats")).to_contain_text("1 answered")
    screenshot(page, f"puzzle-record-{size}", full_page=False)
    assert serious_axe_violations(page) == []
    page.get_by_role("link", name="Past puzzles").click()
    expect(page.get_by_role("link", name="29 Feb 2024")).to_be_visible()
    screenshot(page, f"puzzle-archive-{size}", full_page=False)
    assert serious_axe_violations(page) == []


def test_the_puzzle_answers_without_javascript(live_daphne: str, browser):
    context = browser.new_context(java_script_enabled=False, viewport=SIZES["phone"])
    try:
        page = context.new_page()
        puzzle = services.puzzle_for(DAY)
        page.goto(f"{live_daphne}/puzzles/{DAY.isoformat()}/")
        for card in puzzle.best["laid_away"].split():
            page.get_by_label(parse_card(card).name, exact=True).check()
        page.get_by_role("button", name="Lay these two away").click()
        expect(page.get_by_text("the engine's choice too")).to_be_visible()
        expect(page.locator("[data-split]")).to_have_count(15)
        screenshot(page, "puzzle-answered-no-javascript-phone", full_page=False)
        assert Vote.objects.get().agreed
    finally:
        context.close()
