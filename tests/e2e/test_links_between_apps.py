"""The links one app draws to another's pages, now asked for through play's registry and Django's
LOGIN_URL instead of by URL name, lead where they did: at desktop and phone widths."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games.tournaments.models import Tournament
from tests.e2e.helpers import screenshot, sign_up
from tests.history.helpers import finish_between
from tests.play.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_links_to_other_apps_pages_lead_to_them(live_daphne: str, page: Page, size: str):
    page.set_viewport_size(SIZES[size])
    name = f"linker{size[0]}"
    sign_up(page, live_daphne, name)

    # The lobby's new-game form (play) links to the rules page (pages), at its house rules (inside
    # the folded house rules, so found by its text).
    rules = page.locator("a", has_text="What each house rule means").first
    assert rules.get_attribute("href") == "/rules/#house-rules"
    screenshot(page, f"links-lobby-{size}")

    # A finished game's board (play) links to its record (history); the record links to how deals
    # are checked (history) and to the opponent's profile (accounts).
    game = finish_between(get_user_model().objects.get(username=name), make_user(f"other{size[0]}"),
                          seed=3, rated=True)
    page.goto(f"{live_daphne}/games/{game.pk}/")
    page.get_by_role("link", name="Game record").click()
    expect(page).to_have_url(f"{live_daphne}/games/{game.pk}/record/")
    profile = page.get_by_role("link", name=f"other{size[0]}", exact=True).first
    assert profile.get_attribute("href") == f"/accounts/u/other{size[0]}/"
    screenshot(page, f"links-record-{size}", full_page=False)
    page.get_by_role("link", name="How it works, and how to check it yourself").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.url == f"{live_daphne}/fair-deals/"

    # Logged out, a tournament's page (tournaments) sends a player to the log-in (accounts) and back.
    t = Tournament.objects.create(name=f"Links Open {size}")
    page.context.clear_cookies()  # logged out (the phone's menu hides the button)
    page.goto(f"{live_daphne}/accounts/deleted/")  # the page after an account is deleted (accounts)
    page.get_by_role("link", name="home page").click()  # leads home (pages)
    expect(page).to_have_url(f"{live_daphne}/")
    page.goto(f"{live_daphne}{t.get_absolute_url()}")
    screenshot(page, f"links-tournament-{size}", full_page=False)
    page.get_by_role("link", name="Log in", exact=True).last.click()
    expect(page).to_have_url(f"{live_daphne}/accounts/login/?next=/tournaments/{t.pk}/")
