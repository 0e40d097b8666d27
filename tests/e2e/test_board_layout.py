"""The board page on a phone and on a desktop: a readable pegboard (on a laptop the table's
centrepiece), score calls in a lane of their own, moving nothing and covering no score, the hand,
the menu or the heading, and labels in two lines at most even with the expert's long name."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.rules import HouseRules
from games.play.models import Game
from tests.e2e.helpers import screenshot
from tests.e2e.table_checks import (
    LABELS,
    assert_calls_cover_nothing,
    assert_page_is_the_screen,
    labels_past_two_lines,
    settled,
)
from tests.e2e.test_board_fits import LAPTOP, PHASES, RULES, reach, settle
from tests.history.helpers import finish_vs_computer
from tests.live.support import session_key
from tests.play.factories import computer_game, fixed_secrets, make_user, play_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.fixture(autouse=True)
def _same_deals(monkeypatch):
    fixed_secrets(monkeypatch, "layout")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
A_LONG_CALL = "Computer (easy): fifteen two, fifteen four and a pair is six"


def open_board(browser: Browser, live_daphne: str, viewport: dict, game: Game | None = None) -> Page:
    alice = make_user("alice") if game is None else game.created_by
    game = game or computer_game(alice)
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    return page


def box(page: Page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def overlaps(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def announce(page: Page, text: str) -> None:
    """Show a call as a move's answer does (its content swapped into the page's live region)."""
    page.evaluate(
        "(text) => { const span = document.createElement('span'); span.className = 'call';"
        " span.textContent = text; document.getElementById('announce').replaceChildren(span); }",
        text,
    )


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_call_covers_nothing_on_the_page(browser: Browser, live_daphne: str, name: str, viewport: dict):
    """A call stands in its lane: it moves nothing, and covers neither the menu, the heading, the
    pegboard, a score, a card nor a control."""
    page = open_board(browser, live_daphne, viewport)
    assert page.locator("#announce").inner_text() == ""  # a fresh page calls out nothing old
    # The cut for deal's deck spans the table; the call lets a click through to it (checked below).
    essentials = (".site-header", "#board h1", "#board .cribbage-board",
                  "#board .seat--me .seat__score", "#board .seat--opponent .seat__score")
    before = [box(page, essential) for essential in essentials]
    announce(page, A_LONG_CALL)
    call = box(page, "#announce .call")
    assert call["height"] > 0
    for essential, was in zip(essentials, before, strict=True):
        assert box(page, essential) == was, f"the call moved {essential} on a {name}"
        assert not overlaps(call, was), f"the call covers {essential} on a {name}"
    assert_calls_cover_nothing(page, f"a long call on a {name}")
    assert page.locator("#announce").evaluate("a => getComputedStyle(a).pointerEvents") == "none"
    screenshot(page, f"board-call-{name}")
    page.context.close()


def test_the_pegboard_fits_a_phone_and_stays_readable(browser: Browser, live_daphne: str):
    page = open_board(browser, live_daphne, PHONE)
    frame = page.locator("#board .cribbage-board")
    # A compact track across the screen: nothing of it, nor of the page, scrolls sideways.
    assert frame.evaluate("f => f.scrollWidth <= f.clientWidth")
    page_box = "() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    scroll_width, client_width = page.evaluate(page_box)
    assert scroll_width <= client_width
    board = page.locator("#board .board-svg").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    assert board["height"] >= 80
    label = page.locator("#board .skunk-line text").first.bounding_box()
    assert label["height"] >= 6  # "double skunk 60" can be read
    peg = page.locator("#board .peg--front").first.bounding_box()
    assert peg["width"] >= 5  # a peg stands out from the holes (about 3 px across)
    scores = page.locator("#board .board-scores").bounding_box()
    assert scores["x"] >= 0 and scores["x"] + scores["width"] <= PHONE["width"]
    expect(page.get_by_text("Swipe the board sideways")).to_have_count(0)
    screenshot(page, "board-phone")
    page.context.close()


def test_at_the_end_a_phone_shows_the_winners_peg(browser: Browser, live_daphne: str):
    game = finish_vs_computer(make_user("alice"), seed=3, rules=HouseRules(target=61))
    page = open_board(browser, live_daphne, PHONE, game)
    expect(page.locator("#board.phase-match_over")).to_have_count(1)
    frame = page.locator("#board .cribbage-board").bounding_box()
    pegs = page.locator("#board .peg--front")
    holes = [int(pegs.nth(i).get_attribute("data-hole")) for i in range(pegs.count())]
    assert max(holes) >= 61
    winner = pegs.nth(holes.index(max(holes))).bounding_box()
    assert frame["x"] <= winner["x"] and winner["x"] + winner["width"] <= frame["x"] + frame["width"]
    page.context.close()


def test_the_pegboard_fits_a_desktop_without_scrolling(browser: Browser, live_daphne: str):
    page = open_board(browser, live_daphne, DESKTOP)
    frame = page.locator("#board .cribbage-board")
    assert frame.evaluate("f => f.scrollWidth <= f.clientWidth")
    # Beside the table, at the top of the screen, so the table below it is not pushed down.
    board, table = box(page, "#board .board-svg"), box(page, "#board .table")
    assert board["x"] >= table["x"] + table["width"]
    assert board["y"] < table["y"] + 50
    assert board["height"] >= 90
    assert box(page, "#board .peg--front")["width"] >= 6
    page.context.close()


def test_the_pegboard_is_the_centrepiece_of_a_laptop(browser: Browser, live_daphne: str):
    """At 1280x720, with the show on the table: the pegboard is wider than one and a half hands and
    almost as wide as the table, its holes and pegs drawn large enough to read, and the page still
    the screen's height."""
    alice = make_user("alice")
    game = reach(alice, PHASES["show"])
    page = open_board(browser, live_daphne, LAPTOP, game)
    settled(page)
    assert_page_is_the_screen(page, "the show on a laptop")
    board, hand, table = (box(page, s) for s in ("#board .board-svg", "#board .seat--me .hand",
                                                 "#board .table"))
    assert page.locator("#board .seat--me .hand .card").count() == 4
    assert board["width"] >= 1.6 * hand["width"], (
        f"the pegboard is {board['width']:.0f} px wide, a hand {hand['width']:.0f}")
    assert board["width"] >= 0.8 * table["width"]
    assert board["height"] >= 140
    assert board["y"] + board["height"] <= LAPTOP["height"]
    assert box(page, "#board .board-svg .start-hole")["width"] >= 4.5  # a hole, about 5 px across
    assert box(page, "#board .peg--front")["width"] >= 9.5  # a peg, twice a hole
    screenshot(page, "board-centrepiece-laptop", full_page=False)
    page.context.close()


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("laptop", LAPTOP)])
def test_no_label_wraps_past_two_lines_with_the_experts_name(browser: Browser, live_daphne: str, name: str,
                                                             viewport: dict):
    """The expert deals: "Computer (expert)'s crib (4)" reads whole in two lines, as every other
    label of the table, the phase's title and the pegboard's names do."""
    alice = make_user("alice")
    game = computer_game(alice, level="expert", rules=RULES)
    play_out(game, {0: alice}, random.Random(2), stop=lambda s: s.phase == "play" and s.dealer == 1)
    settle(game)
    page = open_board(browser, live_daphne, viewport, game)
    settled(page)
    expect(page.locator("#board .crib h3")).to_have_text("Computer (expert)'s crib (4)")
    assert labels_past_two_lines(page, LABELS) == []
    assert_page_is_the_screen(page, f"the expert's crib on a {name}")
    screenshot(page, f"board-expert-labels-{name}", full_page=False)
    page.context.close()
