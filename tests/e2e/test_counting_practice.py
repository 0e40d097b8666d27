"""The counting trainer in Chromium at 1280x720 and 390x844: a right count typed and sent with the
keyboard, a wrong one tapped, each answered in place with the breakdown and the streak; big enough
to tap on a phone, and no serious axe-core violation on the question or the answer."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from games.practice.levels import deal
from games.practice.models import CountingRecord
from games.practice.trainer import KEY
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
TAP = 44  # the smallest target a finger hits reliably (WCAG 2.5.5)


def _state(key: str) -> dict:
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)[KEY]


def _dealt(key: str):
    state = _state(key)
    return deal(state["seed"], state["number"], state["level"])


def _waiting(key: str) -> tuple[int, int]:
    """The number and the true count of the hand the server dealt, read from the player's session."""
    return _state(key)["number"], _dealt(key).score.total


def _big_enough(page: Page, locator) -> None:
    box = locator.bounding_box()
    assert box is not None and box["height"] >= TAP and box["width"] >= TAP, box


@pytest.mark.parametrize("size", SIZES)
def test_a_right_and_a_wrong_count_and_the_streak(browser: Browser, live_daphne: str, size: str):
    user = make_user(f"counter-{size}")
    key = session_key(user)
    context = browser.new_context(viewport=SIZES[size])
    context.add_cookies([{"name": "sessionid", "value": key, "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/practice/counting/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Practise counting")
    box = page.get_by_label(re.compile(r"What is (this hand|the crib) worth\?"))
    expect(box).to_be_focused()  # ready to type at once
    _big_enough(page, box)
    _big_enough(page, page.get_by_role("button", name="Count", exact=True))
    assert serious_axe_violations(page) == []
    screenshot(page, f"practice_question_{size}", full_page=False)
    page.evaluate("() => { window.__notReloaded = true; }")

    number, total = _waiting(key)
    dealt = _dealt(key)
    # The count box is described by the cards, so a screen reader hears the hand it asks about.
    names = " ".join(c.name for c in dealt.hand)
    expect(box).to_have_accessible_description(re.compile(f"{names}.*Starter.*{dealt.starter.name}"))
    box.fill(str(total))
    box.press("Enter")
    verdict = page.get_by_test_id("trainer-verdict")
    expect(verdict).to_contain_text(f"Right: the {'crib' if 'crib' in verdict.inner_text() else 'hand'}")
    expect(verdict).to_contain_text(f"worth {total}")
    expect(page.locator(".rightcount")).to_have_text(f"Counted {total}: right")
    expect(page.get_by_test_id("trainer-streak")).to_have_text("1")
    expect(page.get_by_test_id("trainer-record")).to_contain_text("1 of 1 right (100%)")
    expect(page.get_by_role("link", name="Next hand")).to_be_focused()
    expect(page.get_by_role("link", name="Next hand")).to_have_accessible_description(re.compile("^Right"))
    assert serious_axe_violations(page) == []
    screenshot(page, f"practice_right_{size}")

    page.get_by_role("link", name="Next hand").click()
    box = page.get_by_label(re.compile(r"What is (this hand|the crib) worth\?"))
    expect(box).to_be_focused()
    number_2, total = _waiting(key)
    assert number_2 == number + 1
    wrong = total - 2 if total >= 2 else total + 3
    box.fill(str(wrong))
    page.get_by_role("button", name="Count", exact=True).click()
    expect(verdict).to_contain_text(f"worth {total}, you counted {wrong}")
    expect(page.locator(".trainer .undercount")).to_contain_text(
        f"Worth {total}, counted {wrong}: " + ("2 missed" if total >= 2 else "3 too many"))
    expect(page.get_by_test_id("trainer-streak")).to_have_text("0")
    expect(page.get_by_test_id("trainer-record")).to_contain_text("1 of 2 right (50%)")
    assert page.evaluate("() => window.__notReloaded") is True  # answered in place
    record = CountingRecord.objects.get(user=user)
    assert (record.counted, record.right, record.streak, record.best_streak) == (2, 1, 0, 1)
    assert serious_axe_violations(page) == []
    screenshot(page, f"practice_wrong_{size}")
    context.close()
    if size == "laptop":
        _without_javascript(browser, live_daphne, key)


def _without_javascript(browser: Browser, live_daphne: str, key: str) -> None:
    """The form posts and the result comes back by a redirect; Next hand is a plain link."""
    context = browser.new_context(viewport=SIZES["laptop"], java_script_enabled=False)
    context.add_cookies([{"name": "sessionid", "value": key, "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/practice/counting/")
    number, total = _waiting(key)
    page.locator("#count-points").fill(str(total))
    page.get_by_role("button", name="Count", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/practice/counting/\?counted={number}$"))
    expect(page.get_by_test_id("trainer-verdict")).to_contain_text(f"worth {total}")
    expect(page.get_by_test_id("trainer-streak")).to_have_text("1")
    page.get_by_role("link", name="Next hand").click()
    expect(page.locator("input[name=hand]")).to_have_value(str(number + 1))
    context.close()
