"""In Chromium, on a phone and a laptop: a learner goes from the rules page through the lesson's two
prepared deals, making every move, and the table explains each step as it comes, to the offer of a
normal game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.play.models import Game
from tests.e2e.helpers import log_in, phase_and_version, screenshot, serious_axe_violations
from tests.play.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 720}
MAX_STEPS = 120


def both_sizes(page: Page, name: str) -> None:
    """The screen as the learner sees it on a phone, then on a laptop, then back to the phone."""
    screenshot(page, f"lesson-{name}-390", full_page=False)
    page.set_viewport_size(LAPTOP)
    screenshot(page, f"lesson-{name}-1280", full_page=False)
    page.set_viewport_size(PHONE)


def test_a_learner_plays_the_lesson_through_with_every_step_explained(live_daphne: str, page: Page):
    page.set_default_timeout(15000)
    page.set_viewport_size(PHONE)
    log_in(page, live_daphne, make_user("learner"))
    page.goto(f"{live_daphne}/rules/")
    page.get_by_role("link", name="Learn by playing").click()
    expect(page.get_by_role("heading", name="Learn by playing")).to_be_visible()
    both_sizes(page, "intro")
    assert serious_axe_violations(page) == []
    page.get_by_role("button", name="Start the lesson").click()

    board, coach = page.locator("#board"), page.locator("#coach")
    says = page.locator("#coach-says")
    expect(coach.get_by_role("heading")).to_have_text("The table explains: The cut for deal")
    expect(says).to_contain_text("The lower card deals")
    expect(says).to_have_attribute("aria-live", "polite")
    assert serious_axe_violations(page) == []

    # The explanations hide and come back from the keyboard, the focus staying on the switch.
    page.locator("#coach-toggle").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#coach-toggle")).to_have_text("Show explanations")
    expect(says).to_have_text("")
    expect(page.locator("#coach-toggle")).to_be_focused()
    page.keyboard.press("Enter")
    expect(says).to_contain_text("The lower card deals")
    expect(page.locator("#coach-toggle")).to_be_focused()
    coach.scroll_into_view_if_needed()
    both_sizes(page, "cut")

    seen: set[str] = set()
    for _ in range(MAX_STEPS):
        if "The lesson is done" in (says.text_content() or ""):
            break
        phase, before = phase_and_version(board)
        if "phase-cut" in phase:
            free = page.locator(".cut-deck button.fan__card:not([disabled])")
            _act(page, free.nth(7), position={"x": 6, "y": 20}, force=True)
        elif "phase-discard" in phase and page.get_by_role("checkbox").count() == 6:
            expect(says).to_contain_text("The computer's advice: lay away")
            _advice_is_the_hint_s_first_row(page)
            if "discard" not in seen:
                coach.scroll_into_view_if_needed()
                both_sizes(page, "discard")
            seen.add("discard")
            page.get_by_role("checkbox").nth(0).check()
            page.get_by_role("checkbox").nth(1).check()
            _act(page, page.get_by_role("button", name="Lay away to the crib"))
        elif "phase-play" in phase and page.locator("body[data-my-turn], #board[data-my-turn]").count():
            go = page.get_by_role("button", name="Go", exact=True)
            if go.count() and go.is_enabled():
                expect(says).to_contain_text("say Go")
                seen.add("go")
                _act(page, go)
            else:
                expect(says).to_contain_text("Your turn: the count is")
                _act(page, page.locator(".play-form button.playable:not([disabled])").first)
                # The card's count stays said while the computer answers (its last card ends the play).
                expect(says).to_contain_text(re.compile(r"You played .+: the count is \d+\.|The show: each"))
                if "play" not in seen:
                    coach.scroll_into_view_if_needed()
                    both_sizes(page, "play")
                seen.add("play")
        elif "phase-show" in phase and page.get_by_role("button", name="Next hand").count():
            expect(says).to_contain_text("The show: each hand is counted with the starter")
            _show_totals_agree(page)
            seen.add("show")
            if "The lesson is done" in (says.text_content() or ""):
                break
            coach.scroll_into_view_if_needed()
            both_sizes(page, "show")
            _act(page, page.get_by_role("button", name="Next hand"))
        else:  # the computer's move, or the starter, is on its way
            expect(board).not_to_have_attribute("data-version", before)
    else:
        pytest.fail("the lesson did not reach its end")

    assert {"discard", "play", "show"} <= seen
    expect(says).to_contain_text("The skunk lines")
    expect(says).to_contain_text("91")
    offer = page.get_by_role("button", name="Start a normal game")
    offer.scroll_into_view_if_needed()
    both_sizes(page, "end")
    assert serious_axe_violations(page) == []
    offer.click()
    expect(page.locator("#board")).to_have_class(re.compile("phase-cut"))
    expect(page.locator("#coach")).to_have_count(0)
    assert Game.objects.filter(lesson=False, vs_computer=True).count() == 1


def _act(page: Page, control, **click) -> None:
    """One move, by clicking ``control``: wait for its answer (the computer's reply may land first
    and redraw the board; the caller's loop looks again)."""
    try:
        with page.expect_response(lambda r: r.request.method == "POST", timeout=10000):
            control.click(timeout=3000, **click)
    except PlaywrightTimeout:
        return
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def _advice_is_the_hint_s_first_row(page: Page) -> None:
    advice = re.search(r"lay away (.+?) and keep", page.locator("#coach-says").inner_text()).group(1)
    first_row = page.locator("details.hints tbody tr").first.locator("td").first.text_content() or ""
    assert advice.split() == first_row.split()


def _show_totals_agree(page: Page) -> None:
    """Each hand the coach counts ends on the total the show's breakdown gives it."""
    said = [int(t) for t in re.findall(r"That is (\d+)\.", page.locator("#coach-says").inner_text())]
    nothing = page.locator("#coach-says").inner_text().count("Nothing to count")
    shown = page.locator(".show-breakdown .counted-hand")
    assert len(said) + nothing == shown.count() > 0
