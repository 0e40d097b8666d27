"""The record's chances-to-win line: one point per deal from the engine's table, then the result,
from the viewer's side."""

from __future__ import annotations

import re

import pytest

from games.engine.rules import HouseRules
from games.engine.winprob import win_chance
from games.history.win_chart import chances, win_chart
from tests.history.helpers import finish_between, resign_after

HANDS = [["5H"] * 6, ["6H"] * 6]  # only their number matters here
DEALS = [
    {"deal_no": 0, "dealer": 0, "scores_before": [0, 0], "won_by": None, "hands": HANDS},
    {"deal_no": 1, "dealer": 1, "scores_before": [14, 9], "won_by": None, "hands": HANDS},
    {"deal_no": 2, "dealer": 0, "scores_before": [30, 41], "won_by": 1, "hands": HANDS},
]


def test_each_deal_starts_at_the_table_s_chance_and_the_result_ends_the_line():
    assert chances(DEALS, 0, 121) == [
        (1, win_chance(0, 0, True)), (2, win_chance(14, 9, False)), (3, win_chance(30, 41, True)), (4, 0.0)]
    line = chances(DEALS, 1, 121)
    assert line[0] == (1, pytest.approx(1 - win_chance(0, 0, True))) and line[-1] == (4, 1.0)


def test_no_line_where_the_table_does_not_apply():
    three = [{**d, "scores_before": [0, 0, 0], "hands": HANDS * 2} for d in DEALS[:1]]
    four = [{**d, "hands": HANDS * 2} for d in DEALS]  # two sides, but partnerships
    assert chances(three, 0, 121) is None and chances(four, 0, 121) is None
    assert chances(DEALS, 0, 91) is None and chances([], 0, 121) is None
    assert str(win_chart(four, ["a", "b"], 0, 121, title="Chances")) == ""


def test_the_chart_says_in_words_what_it_draws():
    svg = str(win_chart(DEALS, ["ann", "bo"], 0, 121, title="Chances to win through the game"))
    assert 'role="img"' in svg and "Chances to win through the game" in svg
    assert "Chance to win for ann: 56% at the first deal" in svg and "then lost" in svg
    assert re.findall(r"<circle ", svg).__len__() == 4


@pytest.mark.django_db
def test_the_record_draws_the_line_for_the_player_looking(alice, bob, client):
    game = finish_between(alice, bob, seed=44, rules=HouseRules(target=61))
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/record/").content.decode()
    assert "Chances to win through the game" in html and "Chance to win for bob" in html
    client.force_login(alice)
    assert "Chance to win for alice" in client.get(f"/games/{game.pk}/record/").content.decode()


@pytest.mark.django_db
def test_a_record_without_deals_has_no_line(alice, bob, client):
    game = resign_after(alice, bob, 0)
    assert "Chances to win" not in client.get(f"/games/{game.pk}/record/").content.decode()


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
def test_the_line_is_readable_on_a_laptop_and_a_phone(live_daphne: str, page, alice, bob, size):
    from playwright.sync_api import expect

    from tests.e2e.helpers import log_in, screenshot

    game = finish_between(alice, bob, seed=61, rules=HouseRules(target=61))
    log_in(page, live_daphne, alice)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_daphne}/games/{game.pk}/record/")
    chart = page.locator(".win-chart svg")
    expect(chart).to_be_visible()
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0]  # no sideways scroll
    label = page.locator(".win-chart text").first.bounding_box()
    assert label["height"] >= 8  # a scaled-down label stays readable
    page.locator(".win-chart").screenshot(path=str(screenshot_path(f"history-win-chart-{size[0]}")))
    screenshot(page, f"history-record-win-chart-{size[0]}", full_page=False)


def screenshot_path(name: str):
    from tests.e2e.helpers import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"
