"""The turn is cued, in Chromium: a hidden tab says "Your turn" and sounds, once turned on, mark the
moves; after "Next hand" each board says whom it waits for (screenshots at 1280x720 and 390x844)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, expect

from games.accounts.models import TablePreferences
from tests.e2e.board_watch import LAPTOP, PHONE, laid_away_deal, open_game, version, wait_past
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.play.factories import human_game, make_user, play_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


# ---------- turn cues ----------


def test_a_hidden_tab_says_your_turn_and_sounds_mark_the_moves(browser: Browser, live_daphne: str):
    alice, bob = make_user("alicet"), make_user("bobt")
    game = laid_away_deal(alice, bob)
    page = open_game(browser, live_daphne, alice, game)
    theirs = open_game(browser, live_daphne, bob, game)
    sound = page.get_by_role("switch", name="Sound")
    expect(sound).not_to_be_checked()  # off until the player turns it on
    with page.expect_response(lambda r: r.url.endswith("/accounts/table/")):
        sound.check()
    assert TablePreferences.objects.get(user=alice).sound is True

    page.evaluate("() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); }")
    seen = version(page)
    theirs.locator("button[value=KH]").click()
    assert wait_past(page, seen)
    page.wait_for_function("() => document.title.startsWith('Your turn · ')")
    assert page.evaluate("() => window.__sounds") == ["card", "turn"]
    page.evaluate("() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }")
    page.wait_for_function("() => document.title.startsWith('Your move · ')")

    page.evaluate("() => { window.__sounds = []; }")
    seen = version(page)
    five = page.locator(".play-form .hand button[name=card]").evaluate_all(
        "bs => bs.findIndex(b => b.value === '5D')")
    page.keyboard.press(str(five + 1))  # fifteen two: a card, then a peg
    assert wait_past(page, seen)
    page.wait_for_function("() => window.__sounds.includes('peg')")
    seen = version(page)
    theirs.locator("button[value='9C']").click()
    assert wait_past(page, seen)
    assert page.evaluate("() => window.__sounds") == ["card", "peg", "card", "turn"]
    page.context.close()
    theirs.context.close()


# ---------- whom the board waits for ----------


@pytest.mark.parametrize(("name", "viewport"), [("laptop", LAPTOP), ("phone", PHONE)])
def test_after_next_hand_each_board_says_whom_it_waits_for(browser: Browser, live_daphne: str,
                                                           name: str, viewport: dict):
    alice, bob = make_user(f"alicew{name}"), make_user(f"bobw{name}")
    game = human_game(alice, bob)
    play_out(game, {0: alice, 1: bob}, random.Random(4),
             stop=lambda s: s.phase == "show" and s.turn is None and not any(s.acks))
    page = open_game(browser, live_daphne, alice, game, viewport)
    theirs = open_game(browser, live_daphne, bob, game, viewport)
    seen = version(theirs)
    page.keyboard.press("n")
    expect(page.locator(".waiting-line")).to_have_text(f"Waiting for bobw{name}…")
    assert wait_past(theirs, seen)
    expect(theirs.locator(".waiting-line")).to_have_text(f"alicew{name} is ready.")
    page.locator(".waiting-line").scroll_into_view_if_needed()
    screenshot(page, f"motion-waiting-{name}", full_page=False)
    theirs.locator(".waiting-line").scroll_into_view_if_needed()
    screenshot(theirs, f"motion-ready-{name}", full_page=False)
    assert serious_axe_violations(page) == []
    page.context.close()
    theirs.context.close()
