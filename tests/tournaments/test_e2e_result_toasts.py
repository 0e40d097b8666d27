"""In Chromium: a player's board open when their tournament game ends (the opponent resigns on the
live server) and the next round opens from it. The board turns to the result with the way on (the
next match, the event), the calls that come with it never cover the result or its links, and once
they have faded they go. Photographed at 1280x720 and 390x844."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from games.play.models import Game
from tests.e2e.helpers import screenshot, serious_axe_violations

from .helpers import my_active_match, my_match_in_round_one
from .test_e2e_live_scores import _player, _post_move

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
    t, me, mine, opponent_user = my_match_in_round_one("Saturday Cup")
    opponent = _player(browser, live_daphne, opponent_user)
    contexts = {size: _player(browser, live_daphne, me) for size in SIZES}
    try:
        boards = {}
        for size, context in contexts.items():
            boards[size] = context.new_page()
            boards[size].set_viewport_size(SIZES[size])
            _open_board(boards[size], mine.game_id)
        game = Game.objects.get(pk=mine.game_id)
        _post_move(opponent, game, {"type": "resign", "version": str(game.version)})
        nxt = my_active_match(t, me)
        for size, board in boards.items():
            result = board.locator(".result")
            expect(result).to_be_visible()
            ready = result.get_by_role("link", name="Your next match is ready: open the board")
            expect(ready).to_have_attribute("href", f"/games/{nxt.game_id}/")
            expect(result.get_by_role("link", name="Back to Saturday Cup")).to_be_visible()
            # The live region reads the result out; the eye reads it once, in the result itself.
            expect(board.locator("#announce")).to_contain_text("You win")
            drawn = board.locator("#announce .call:not(.visually-hidden)")
            assert "You win" not in " ".join(drawn.all_text_contents())
            result.scroll_into_view_if_needed()
            assert board.evaluate(OVERLAPS) == [], size
            ready.click(trial=True)  # nothing lies over the link: a click would reach it
            assert serious_axe_violations(board) == []
            screenshot(board, f"tournament-result-on-the-board-{size}", full_page=False)
        for board in boards.values():  # then the calls go, and the board moves up into their room
            board.wait_for_function("() => document.querySelector('#announce').children.length === 0",
                                    timeout=15000)
        boards["phone"].get_by_role("link", name="Your next match is ready: open the board").click()
        expect(boards["phone"]).to_have_url(f"{live_daphne}/games/{nxt.game_id}/")
    finally:
        for context in (*contexts.values(), opponent):
            context.close()
