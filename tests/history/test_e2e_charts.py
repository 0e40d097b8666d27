"""The record's charts and a profile's rating chart, measured in Chromium at 1280x720 and on a
390x844 phone: every word is drawn at least 10 px high on the screen, and none sits over a line
(a chart's lines, its grid, the skunk lines) or over another word."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.rules import HouseRules
from tests.e2e.helpers import log_in, screenshot, serious_axe_violations
from tests.history.helpers import finish_between

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 720}}

# For each shown chart: the smallest word on screen, and every word that crosses a line or a word.
MEASURE = """(selector) => {
  const shown = [...document.querySelectorAll(selector)]
    .filter((svg) => svg.getBoundingClientRect().width > 0);
  return shown.map((svg) => {
    const words = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim());
    const sizes = words.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
    const boxes = words.map((t) => t.getBoundingClientRect());
    const segments = [];
    const point = (x, y) => {
      const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
      return [p.x, p.y];
    };
    svg.querySelectorAll("line").forEach((l) => segments.push([
      point(l.x1.baseVal.value, l.y1.baseVal.value), point(l.x2.baseVal.value, l.y2.baseVal.value)]));
    svg.querySelectorAll("polyline").forEach((p) => {
      const pts = [...p.points].map((q) => point(q.x, q.y));
      for (let i = 1; i < pts.length; i++) segments.push([pts[i - 1], pts[i]]);
    });
    // A segment crosses a box when it has a point inside it (sampled finely: lines are straight).
    const crosses = (b, [[x1, y1], [x2, y2]]) => {
      for (let k = 0; k <= 200; k++) {
        const x = x1 + (x2 - x1) * k / 200, y = y1 + (y2 - y1) * k / 200;
        if (x > b.left + 0.5 && x < b.right - 0.5 && y > b.top + 0.5 && y < b.bottom - 0.5) return true;
      }
      return false;
    };
    const over = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const clashes = [];
    boxes.forEach((b, i) => {
      if (segments.some((s) => crosses(b, s))) clashes.push(words[i].textContent + " on a line");
      boxes.forEach((c, j) => {
        if (j > i && over(b, c)) clashes.push(words[i].textContent + " on " + words[j].textContent);
      });
      const frame = svg.getBoundingClientRect();
      if (b.left < frame.left - 0.5 || b.right > frame.right + 0.5) {
        clashes.push(words[i].textContent + " cut off");
      }
    });
    return {smallest: Math.min(...sizes), clashes};
  });
}"""


def _open(browser: Browser, base: str, user, path: str, size: str) -> Page:
    page = browser.new_context(viewport=SIZES[size]).new_page()
    log_in(page, base, user)
    page.goto(base + path)
    return page


def _readable(page: Page, selector: str, count: int) -> None:
    charts = page.evaluate(MEASURE, selector)
    assert len(charts) == count, f"{selector}: {len(charts)} shown"
    for chart in charts:
        assert chart["smallest"] >= 10, f"{selector}: a word {chart['smallest']:.1f} px high"
        assert chart["clashes"] == [], f"{selector}: {chart['clashes'][:5]}"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_charts_read_on_a_phone_and_a_laptop(browser: Browser, live_daphne: str, alice, bob, size: str):
    long = finish_between(alice, bob, seed=11, rated=True)  # 121 points: a dozen deals and more
    finish_between(alice, bob, seed=12, rules=HouseRules(target=61), rated=True)
    page = _open(browser, live_daphne, alice, f"/games/{long.pk}/record/", size)
    expect(page.locator(".score-chart svg:visible")).to_be_visible()
    _readable(page, ".score-chart svg", 1)
    _readable(page, ".win-chart svg", 1)
    page.locator(".score-chart").scroll_into_view_if_needed()
    screenshot(page, f"chart-scores-{size}", full_page=False)
    page.locator(".win-chart").scroll_into_view_if_needed()
    screenshot(page, f"chart-chances-{size}", full_page=False)
    assert serious_axe_violations(page) == []
    page.goto(f"{live_daphne}/accounts/u/{alice.username}/")
    expect(page.locator("svg.rating-chart").first).to_be_visible()
    _readable(page, "svg.rating-chart", 2)  # a rating for each length of game
    page.locator("svg.rating-chart").first.scroll_into_view_if_needed()
    screenshot(page, f"chart-rating-{size}", full_page=False)
    assert serious_axe_violations(page) == []
    page.context.close()
