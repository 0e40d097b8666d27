"""An over-count in the browser: bob claims 9 for a hand worth 4 with muggins on. His board says the
claim was too many and what he pegged; alice's board, open beside it, is told by a push (no
reload) that she pegged the excess as the penalty. Photographed at 1280x720 and 390x844."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.rules import HouseRules
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import GO_HANDS, GO_PLAY, act, fixed_secrets, human_game, load, make_user, stack

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
ROW = "Worth 4, counted 9: too many, 4 pegged; 5 to the opponent as the penalty"


@pytest.fixture(autouse=True)
def _same_deals(monkeypatch):
    fixed_secrets(monkeypatch, "count-e2e")


def open_board(browser: Browser, live_daphne: str, user, game, viewport: dict) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(user), "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/games/{game.pk}/")
    return page


@pytest.mark.parametrize("size", SIZES)
def test_an_over_count_is_corrected_and_the_penalty_reaches_the_opponent(browser, live_daphne, size):
    alice, bob = make_user("alice"), make_user("bob")
    rules = HouseRules(manual_counting=True, muggins=True)
    game = stack(human_game(alice, bob, rules=rules), dealer=0, hands=GO_HANDS, starter="5C")
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    for seat, action in GO_PLAY:
        act(game, (alice, bob)[seat], action)

    theirs = open_board(browser, live_daphne, alice, game, SIZES[size])
    expect(theirs.locator(".count-controls").get_by_text(re.compile(r"^bob is counting"))).to_be_visible()
    theirs.evaluate("() => { window.__notReloaded = true; }")
    mine = open_board(browser, live_daphne, bob, game, SIZES[size])
    expect(mine.locator(".count-controls .count-prompt")).to_contain_text("One count")
    # The rule in full is the count box's description, read out with it.
    expect(mine.locator("#count-points")).to_have_attribute("aria-describedby", "count-rule")
    rule = "One count only. Too many and you peg what it is worth"
    expect(mine.locator("#count-rule")).to_contain_text(rule)
    mine.get_by_label("What is your hand worth?").fill("9")
    mine.get_by_role("button", name="Count", exact=True).click()

    row = mine.locator(".show-breakdown .overcount")
    expect(row).to_have_text(ROW)
    # The call says it over the table at once; the show's breakdown, with its row, is in the side
    # column on a laptop and in the drawer a phone opens.
    expect(mine.locator("#announce")).to_contain_text("too many")
    if size == "phone":
        mine.locator(".board-drawer__toggle").click()
    expect(row).to_be_visible()
    expect(mine.locator("#board")).to_contain_text("Counted 9 for the hand: too many")
    assert load(game).scores == (1 + 5, 1 + 4)
    assert serious_axe_violations(mine) == []
    row.scroll_into_view_if_needed()
    screenshot(mine, f"manual_count_over_{size}", full_page=False)

    # Alice's board hears of it by the push: her penalty in the log and the row, and her own count due.
    expect(theirs.locator(".show-breakdown .overcount")).to_have_text(ROW)
    expect(theirs.locator("#board")).to_contain_text("Penalty for the over-count: 5")
    expect(theirs.get_by_label("What is your hand worth?")).to_be_visible()
    assert theirs.evaluate("() => window.__notReloaded") is True
    screenshot(theirs, f"manual_count_penalty_{size}", full_page=False)
    mine.context.close()
    theirs.context.close()
