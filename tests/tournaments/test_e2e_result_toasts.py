"""In Chromium: a player's board open when the director enters their match's result. The board turns
to "Game over" with the way back to the event, and the calls that come with it never cover the
result or its links. Photographed at 1280x720 and 390x844."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from games.tournaments import services
from games.tournaments.models import Tournament
from tests.e2e.helpers import screenshot, serious_axe_violations

from .helpers import active_matches, make_players, make_tournament
from .test_e2e_desk import _signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}

OVERLAPS = """() => {
  const result = document.querySelector('.result');
  const box = (el) => el.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const targets = [result, ...result.querySelectorAll('a, button, h2')].map(box);
  return [...document.querySelectorAll('.announce .call')]
    .filter((c) => getComputedStyle(c).visibility !== 'hidden' && Number(getComputedStyle(c).opacity) > 0.05)
    .filter((c) => targets.some((t) => hit(box(c), t))).map((c) => c.textContent);
}"""


def _open_board(page: Page, game_id: int) -> None:
    page.goto(f"/games/{game_id}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")


def test_the_result_and_its_links_stay_clear_of_the_calls(live_daphne: str, browser: Browser):
    # One test for both sizes: the desk writes the admin's log, whose content types the live server
    # caches, and a test database flushed between tests would leave it holding stale ones.
    staff = get_user_model().objects.create_superuser("td", email="td@example.com", password=None)
    t = make_tournament(make_players(4), name="Saturday Cup", format=Tournament.Format.ROUND_ROBIN,
                        auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    m, other = active_matches(t)
    user = m.entrant2.user
    players = {size: _signed_in(browser, live_daphne, user, shape) for size, shape in SIZES.items()}
    desk = _signed_in(browser, live_daphne, staff, SIZES["laptop"])
    try:
        boards = {}
        for size, context in players.items():
            boards[size] = context.new_page()
            _open_board(boards[size], m.game_id)
        director = desk.new_page()
        director.goto(reverse("admin:tournaments_tournament_desk", args=[t.pk]))
        director.get_by_label(f"Winner of {m.label}").select_option(label=m.entrant1.name)
        director.get_by_label(f"Winner of {other.label}").select_option(label=other.entrant1.name)
        director.get_by_role("button", name="Save the results").click()
        expect(director.locator(".messagelist")).to_contain_text("Saved 2 results")
        for size, board in boards.items():
            result = board.locator(".result")
            expect(result).to_be_visible()
            back = result.get_by_role("link", name="Back to Saturday Cup")
            expect(back).to_be_visible()
            # The live region reads the result out; the eye reads it once, in the result itself.
            winner = m.entrant1.name
            expect(board.locator("#announce")).to_contain_text(f"{winner} wins by the organiser's decision")
            drawn = board.locator("#announce .call:not(.visually-hidden)")
            assert f"{winner} wins" not in " ".join(drawn.all_text_contents())
            result.scroll_into_view_if_needed()
            assert board.evaluate(OVERLAPS) == [], size
            back.click(trial=True)  # nothing lies over the link: a click would reach it
            assert serious_axe_violations(board) == []
            screenshot(board, f"tournament-result-on-the-board-{size}", full_page=False)
        for board in boards.values():  # then the calls go, and the board moves up into their room
            board.wait_for_function("() => document.querySelector('#announce').children.length === 0",
                                    timeout=15000)

        # The director opens round 2: the finished board says the next match is ready, pushed.
        director.get_by_role("button", name="Open round 2").click()
        expect(director.locator(".messagelist")).to_contain_text("Moved on: round 2.")
        (nxt,) = [n for n in active_matches(t) if user.pk in (n.entrant1.user_id, n.entrant2.user_id)]
        for size, board in boards.items():
            ready = board.get_by_role("link", name="Your next match is ready: open the board")
            expect(ready).to_have_attribute("href", f"/games/{nxt.game_id}/")
            ready.scroll_into_view_if_needed()
            assert board.evaluate(OVERLAPS) == [], size
            screenshot(board, f"tournament-next-match-on-the-board-{size}", full_page=False)
        boards["phone"].get_by_role("link", name="Your next match is ready: open the board").click()
        expect(boards["phone"]).to_have_url(f"{live_daphne}/games/{nxt.game_id}/")
    finally:
        for context in (*players.values(), desk):
            context.close()
