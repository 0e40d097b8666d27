"""In Chromium: the discard hint's table of points and winning chances, on a laptop and a phone."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from games.play.models import Move
from tests.e2e.helpers import log_in, screenshot, serious_axe_violations
from tests.play.factories import computer_game, load, play_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
def test_the_hint_shows_each_split_s_chance_to_win(live_daphne: str, page: Page, alice, size):
    game = computer_game(alice, level="easy", hints=True)
    play_out(game, {0: alice}, random.Random(2), stop=lambda state: state.phase == "discard")
    assert load(game).phase == "discard" and Move.objects.filter(game=game).exists()
    log_in(page, live_daphne, alice)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_daphne}/games/{game.pk}/")
    hints = page.locator("details.hints")
    hints.locator("summary").click()
    expect(hints.locator("th", has_text="To win")).to_be_visible()
    expect(hints.locator("tbody tr")).to_have_count(15)
    expect(hints.locator("tbody tr").first).to_contain_text("%")
    hints.scroll_into_view_if_needed()
    screenshot(page, f"board-hints-{size[0]}", full_page=False)
    assert serious_axe_violations(page) == []
