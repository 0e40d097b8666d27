"""A game record's score chart at 1280x720 and on a 390x844 phone: its words can be read, and the
skunk lines' words stand beside the plot, on no line."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import ARTIFACTS, screenshot, serious_axe_violations
from tests.e2e.test_board_fits import LAPTOP, PHONE, RULES, no_sideways_scroll, open_page
from tests.play.factories import computer_game, make_user, play_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("laptop", LAPTOP)])
def test_the_score_chart_reads_on_a_laptop_and_a_phone(browser: Browser, live_daphne: str, name: str,
                                                       viewport: dict):
    alice = make_user(f"alice-chart-{name}")
    game = computer_game(alice, rules=RULES)
    play_out(game, {0: alice}, random.Random(3))
    page = open_page(browser, live_daphne, alice, f"/games/{game.pk}/record/", viewport)
    chart = page.locator(".score-chart svg:visible")  # the drawing for this width
    expect(chart).to_be_visible()
    chart.scroll_into_view_if_needed()
    no_sideways_scroll(page)
    plot = chart.locator("rect").first.bounding_box()
    for k in range(chart.locator("text").count()):
        box = chart.locator("text").nth(k).bounding_box()
        assert box["height"] >= 7, f"a word of the chart is {box['height']:.1f} px high"
    for k in range(chart.locator(".chart-skunk-label").count()):
        label = chart.locator(".chart-skunk-label").nth(k).bounding_box()
        assert label["x"] >= plot["x"] + plot["width"], "a skunk line's words sit on the plot"
        assert label["x"] + label["width"] <= page.viewport_size["width"]
    chart.screenshot(path=str(ARTIFACTS / f"chart-{name}.png"))
    screenshot(page, f"record-{name}", full_page=False)
    assert serious_axe_violations(page) == []
    page.context.close()
