"""A newcomer signs up and plays a whole game against the computer in Chromium."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.history.replay_board import shown_moves
from games.play.models import Game, Move, Round
from tests.e2e.helpers import phase_and_version, screenshot, serious_axe_violations, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MAX_ACTIONS = 400


def test_sign_up_and_play_a_whole_game_against_the_computer(live_daphne: str, page: Page):
    page.set_default_timeout(15000)
    sign_up(page, live_daphne, "newcomer")
    assert serious_axe_violations(page) == []

    page.get_by_label("Computer strength").select_option("easy")
    page.get_by_role("button", name="Start game").click()

    # The cut for deal: a fanned deck; pick a card, both cuts are shown with who deals and why.
    expect(page.get_by_text("Cut for deal: pick any card")).to_be_visible()
    assert serious_axe_violations(page) == []
    dealt = re.compile(r"(you deal|Computer \(easy\) deals)")
    offered = page.get_by_text("Cut for deal: pick any card")
    board = page.locator("#board")
    for attempt in range(40):  # equal ranks cut again (the deck is random here)
        phase, before = phase_and_version(board)
        if "phase-cut" not in phase:
            break
        # The old result ("cut again") stays on screen until the answer lands, so the board's
        # version tells that a cut landed, the player's or the computer's (whose cut may still be
        # on its way: the offer is hidden until it lands). Any card the computer has not taken:
        # its pick is random, so no fixed position is free. The computer's re-cut can land between
        # a click and its answer and redraw the board under the click (or htmx has not yet taken
        # over the new form, and the browser posts it without JavaScript): the version has moved
        # either way, and the loop looks at the board again.
        free = page.locator(".cut-deck button.fan__card:not([disabled])")
        if offered.is_visible():
            with contextlib.suppress(PlaywrightError):
                free.nth(10 + 3 * (attempt % 8)).click(position={"x": 6, "y": 20}, force=True, timeout=5000)
        expect(board).not_to_have_attribute("data-version", before)
    expect(page.locator(".cut-result")).to_contain_text(dealt)

    # The discard: pick two, see them marked, confirm; the crib shows face down with its owner.
    expect(page.locator(".seat--opponent .cards li")).to_have_count(4)  # the computer laid away
    page.get_by_role("checkbox").nth(0).check()
    page.get_by_role("checkbox").nth(3).check()
    expect(page.locator(".card-pick__box:checked")).to_have_count(2)
    screenshot(page, "discard")
    assert serious_axe_violations(page) == []
    page.get_by_role("button", name="Lay away to the crib").click()
    expect(page.locator(".crib")).to_contain_text("crib (4)")
    expect(page.locator(".starter")).to_contain_text("Starter")

    seen = {"starter": False, "play": False, "show": False}
    for _ in range(MAX_ACTIONS):
        if page.locator("section.result").count():
            break
        phase, before = phase_and_version(board)
        if "phase-play" in phase:
            if not seen["play"]:
                expect(page.locator("[data-testid=count]")).to_be_visible()
                screenshot(page, "play")
                seen["play"] = True
            if _click_if_enabled(page, page.get_by_role("button", name="Go", exact=True)):
                continue
            if _click_if_enabled(page, page.locator(".play-form button.playable:not([disabled])")):
                continue
        elif "phase-starter" in phase:
            # The pack is the pone's to cut: on the player's own deals the computer cuts it, and
            # the deals alternate, so the player's turn to cut comes on the next one.
            if not seen["starter"] and page.locator(".cut-pack__button").count():
                expect(page.locator(".cut-pack__button")).to_be_visible()
                screenshot(page, "cut-the-pack")
                seen["starter"] = True
                page.keyboard.press("c")  # the key cuts as the button does
                expect(board).not_to_have_attribute("data-version", before)
                continue
            if _click_if_enabled(page, page.locator(".cut-starter-form button")):
                continue
        elif "phase-show" in phase:
            if not seen["show"]:
                expect(page.locator(".show-breakdown")).to_contain_text("hand")
                expect(page.locator(".show-breakdown table").first).to_be_visible()
                screenshot(page, "show")
                seen["show"] = True
            if _click_if_enabled(page, page.get_by_role("button", name="Next hand")):
                continue
        elif "phase-discard" in phase and page.get_by_role("checkbox").count() == 6:
            try:  # the board may move on under the pointer; the loop looks again
                page.get_by_role("checkbox").nth(0).check(timeout=2000)
                page.get_by_role("checkbox").nth(1).check(timeout=2000)
            except PlaywrightTimeout:
                continue
            _click_if_enabled(page, page.get_by_role("button", name="Lay away to the crib"))
            continue
        # Nothing for the player to do: the computer's move (or an answer) is on its way.
        expect(board).not_to_have_attribute("data-version", before)
    else:
        pytest.fail("the game did not end")

    assert seen == {"starter": True, "play": True, "show": True}
    result = page.locator("section.result")
    expect(result.get_by_role("heading")).to_contain_text(re.compile(r"(You win|Computer \(easy\) wins)"))
    expect(result).to_contain_text("Final score")
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    screenshot(page, "game-over")
    # The score calls were announced as they happened, for both players.
    expect(page.locator(".score-log")).to_contain_text(re.compile(r"for \d"))

    _open_the_record_and_replay_it(page, result)


def _open_the_record_and_replay_it(page: Page, result) -> None:
    """The game just played in the browser: its record agrees with the board, every deal verifies
    in the browser, and the replay steps through all of its moves to the same result."""
    final = sorted(re.findall(r"\d+", result.locator("p").first.inner_text()))
    won = "You win" in result.get_by_role("heading").inner_text()
    game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/", page.url).group(1)))
    deals = Round.objects.filter(game=game).count()
    shown = shown_moves(list(Move.objects.filter(game=game).order_by("seq")))  # the replay's moves
    total = len(shown) - 1
    assert deals >= 1 and total > 10

    page.get_by_role("link", name="Game record").click()
    expect(page.get_by_test_id("final-score")).to_be_visible()
    assert sorted(re.findall(r"\d+", page.get_by_test_id("final-score").inner_text())) == final
    winner = "newcomer" if won else "Computer (easy)"
    expect(page.locator(".record-result h2")).to_contain_text(f"{winner} won")
    page.locator("#verify").scroll_into_view_if_needed()  # the check runs once it is in view
    expect(page.locator("#verify-summary")).to_have_attribute("data-state", "ok")
    expect(page.locator('[data-verify-status="ok"]')).to_have_count(deals)
    expect(page.locator(".score-chart svg:visible")).to_be_visible()
    screenshot(page, "played-record")

    page.get_by_role("link", name="Replay").click()
    expect(page.get_by_test_id("step")).to_have_text("0")
    page.get_by_role("button", name="Forward").click()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[1]))
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[2]))
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[1]))
    page.keyboard.press("End")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[total]))  # a step is named by its move
    expect(page.get_by_role("button", name="Forward")).to_be_disabled()
    expect(page.locator(".replay-results")).to_contain_text(f"{winner} wins")
    page.get_by_role("button", name="Back").click()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[total - 1]))
    expect(page).to_have_url(re.compile(rf"\?step={shown[total - 1]}$"))
    screenshot(page, "played-replay")


def _click_if_enabled(page: Page, locator) -> bool:
    """Click the first match if it is there and enabled, then wait for the board to change.

    The computer moves on its own, so the board may be redrawn under the pointer: a click that
    misses (or is refused as stale, with a message) is simply tried again by the caller's loop.
    """
    try:
        if not locator.count() or not locator.first.is_enabled(timeout=2000):
            return False
        # Wait for this click's own answer: a push that lands meanwhile also moves the version.
        with page.expect_response(lambda r: r.request.method == "POST", timeout=10000):
            locator.first.click(timeout=3000)
    except PlaywrightTimeout:
        return False
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    return True
