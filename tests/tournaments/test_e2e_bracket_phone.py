"""In Chromium, on a phone's width: the bracket scrolls sideways in its own box, so its last column
(the final) can be reached, and the page itself does not get wider than the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.tournaments import services
from tests.e2e.helpers import screenshot

from .helpers import make_players, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("players", [4, 8])
def test_the_final_can_be_seen_on_a_phone(live_daphne: str, page: Page, players: int) -> None:
    t = make_tournament(make_players(players), format="ko", name="Phone Knockout")
    services.tournament_start(tournament_id=t.pk)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_daphne}{t.get_absolute_url()}")
    # The page's socket may redraw the bracket as it opens: measure the bracket it leaves in place.
    expect(page.locator(".tournament")).to_have_attribute("data-state", "open")
    wrap = page.locator(".bracket-wrap")
    expect(wrap).to_be_visible()
    sizes = page.evaluate("""() => {
        const wrap = document.querySelector('.bracket-wrap');
        return {page: document.documentElement.scrollWidth, view: window.innerWidth,
                wrap: wrap.clientWidth, content: wrap.scrollWidth,
                right: wrap.getBoundingClientRect().right};
    }""")
    assert sizes["page"] <= sizes["view"], sizes  # nothing cut off at the page's right edge
    assert sizes["right"] <= sizes["view"], sizes
    final = page.locator(".bracket__match").last.locator("rect").first
    if players == 4:  # two rounds: shrunk to fit, the final in full without scrolling
        assert sizes["content"] <= sizes["wrap"], sizes
    else:  # three rounds would be too small to read: the bracket scrolls in its own box
        assert sizes["content"] > sizes["wrap"], sizes
    expect(final).to_be_visible()
    # Scrolled to its end, the final is in full on the screen. The scroll and the reading happen in
    # one script, so a redraw by the page's socket (the bracket anew, scrolled back to its start)
    # cannot come between them; after one that came just before, the script runs again at the next frame.
    box = page.wait_for_function("""(view) => {
        const wrap = document.querySelector('.bracket-wrap');
        wrap.scrollLeft = wrap.scrollWidth;
        // The browser says so in a scroll event at its next frame; said at once here, so a redraw
        // that comes before that frame still finds where the reader left the box.
        wrap.dispatchEvent(new Event('scroll'));
        const matches = wrap.querySelectorAll('.bracket__match');
        const r = matches[matches.length - 1].querySelector('rect').getBoundingClientRect();
        return r.x >= 0 && r.x + r.width <= view && {x: r.x, width: r.width};
    }""", arg=sizes["view"]).json_value()
    assert box["x"] >= 0 and box["x"] + box["width"] <= sizes["view"], box
    if players == 8:
        # A push morphs the live part of the page (here the fresh render the socket answers any
        # message with): the bracket is the same element, still where its reader scrolled it.
        kept = page.evaluate("""() => new Promise(resolve => {
            const wrap = () => document.getElementById('bracket-wrap');
            const before = wrap();
            document.addEventListener('htmx:oobAfterSwap', () => requestAnimationFrame(() => {
                const r = [...wrap().querySelectorAll('.bracket__match rect')].pop().getBoundingClientRect();
                resolve({kept: wrap() === before, scrollLeft: wrap().scrollLeft, x: r.x, width: r.width});
            }), {once: true});
            LiveSocket.socketOf(document.querySelector('.tournament')).send('again');
        })""")
        assert kept["kept"] and kept["scrollLeft"] > 0, kept
        assert kept["x"] >= 0 and kept["x"] + kept["width"] <= sizes["view"], kept
    screenshot(page, f"tournament-bracket-phone-{players}")
