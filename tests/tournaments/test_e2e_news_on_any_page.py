"""In Chromium: an entrant reading one of their game records when the next round opens is told
"Your match is ready" on that page at once, pushed, without a reload: a card in the corner that
moves nothing on the page, whose link opens the board, and which once dismissed stays dismissed.
The round before ends with a resignation posted to the live server, so the round opens there
(through the tournament's services) and its push leaves the process that committed it.
Photographed at 1280x720 and 390x844."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.services.entered_results import Entry
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.play.factories import act, human_game, logged_in, make_user

from .helpers import active_matches, make_players, make_tournament
from .test_e2e_live_scores import _player, _post_move

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}
# Where the page's own content stands: the news must not move any of it.
CONTENT_AT = ("() => Array.from(document.querySelectorAll('#main > *'))"
              ".map(e => e.getBoundingClientRect().top)")


def test_the_match_ready_news_reaches_the_game_record(live_daphne: str, browser: Browser):
    players = make_players(4)
    me = players[0]
    friend = make_user("friend")
    earlier = human_game(me, friend)
    act(earlier, friend, {"type": "resign"})  # a finished game of mine, whose record I read
    t = make_tournament(players, name="Friday Pairs", format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)

    def plays(m) -> bool:
        return me.pk in (m.entrant1.user_id, m.entrant2.user_id)

    mine, other = sorted(active_matches(t), key=lambda m: not plays(m))
    services.round_set_results(tournament_id=t.pk, entries=[Entry(other.pk, other.entrant1_id)], reason="")
    # I have opened my round 1 board already: that match's news is done.
    assert logged_in(me).get(f"/games/{mine.game_id}/").status_code == 200
    readers = {size: _player(browser, live_daphne, me) for size in SIZES}
    opponent = _player(browser, live_daphne, (mine.entrant2 if mine.entrant1.user_id == me.pk
                                              else mine.entrant1).user)
    try:
        pages = {}
        for size, context in readers.items():
            page = context.new_page()
            page.set_viewport_size(SIZES[size])
            page.goto(f"/games/{earlier.pk}/record/")
            expect(page.locator('#site-news[data-sent="0"]')).to_have_count(1)  # the server has nothing yet
            page.evaluate("window.__notReloaded = true")
            pages[size] = (page, page.evaluate(CONTENT_AT))
        game = Game.objects.get(pk=mine.game_id)
        _post_move(opponent, game, {"type": "resign", "version": str(game.version)})
        nxt = next(m for m in active_matches(t) if plays(m))
        for size, (page, content_at) in pages.items():
            news = page.locator("#site-news .site-news__item")
            expect(news).to_have_count(1)
            expect(news).to_contain_text("Your match is ready: Round 2, against")
            expect(news).to_contain_text("Friday Pairs")
            expect(news.get_by_role("link", name="Open the board")).to_have_attribute(
                "href", f"/games/{nxt.game_id}/")
            assert page.evaluate("window.__notReloaded") is True
            assert page.evaluate(CONTENT_AT) == content_at, size  # nothing on the page moved
            box = news.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"], size
            assert box["y"] + box["height"] <= SIZES[size]["height"], size
            assert serious_axe_violations(page) == []
            screenshot(page, f"news-match-ready-on-the-record-{size}", full_page=False)

        # Dismissed on the laptop: it stays dismissed there, on this page and the next.
        laptop = pages["laptop"][0]
        laptop.locator("#site-news").get_by_role("button", name="Dismiss").click()
        expect(laptop.locator("#site-news .site-news__item")).to_have_count(0)
        laptop.goto("/rules/")
        expect(laptop.locator('#site-news[data-sent="1"]')).to_have_count(1)  # the server still has it
        expect(laptop.locator("#site-news .site-news__item")).to_have_count(0)

        # On the phone the link opens the board, and the news is done on every page after it.
        phone = pages["phone"][0]
        phone.locator("#site-news").get_by_role("link", name="Open the board").click()
        expect(phone).to_have_url(f"{live_daphne}/games/{nxt.game_id}/")
        expect(phone.locator("#board")).to_be_visible()
        # The board's socket, once open, is what tells the server the board was seen.
        expect(phone.locator("#connection")).to_have_attribute("data-state", "open")
        assert phone.locator('[data-socket="/ws/news/"]').count() == 0  # the board's own socket serves
        phone.goto(f"/games/{earlier.pk}/record/")
        expect(phone.locator('#site-news[data-sent="0"]')).to_have_count(1)  # the server knows it is done
    finally:
        for context in (*readers.values(), opponent):
            context.close()


def test_a_spectating_entrants_news_socket_leaves_the_boards_status_alone(live_daphne: str, browser: Browser):
    players = make_players(4, "s")
    t = make_tournament(players, name="Watch Cup", format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    me = players[0]
    theirs = next(m for m in active_matches(t) if me.pk not in (m.entrant1.user_id, m.entrant2.user_id))
    context = _player(browser, live_daphne, me)
    try:
        page = context.new_page()
        page.goto(f"/tournaments/{t.pk}/matches/{theirs.pk}/watch/")
        expect(page.locator("#site-news[data-sent]")).to_have_count(1)  # my news socket is open too
        expect(page.locator("#connection")).to_have_text("Connected")
        # The news socket drops: the board's own socket is still up, and its status says so.
        # Read just after the page's own close handler (on the document, added before this one):
        # the board's next heartbeat would set its status right again and hide a wrong one.
        said = page.evaluate("""() => new Promise(resolve => {
            const news = document.querySelector('[data-socket="/ws/news/"]');
            document.addEventListener('socket:close', () => resolve(document.getElementById('connection')
                .textContent.trim()));
            LiveSocket.socketOf(news).close(4000);
        })""")
        assert said == "Connected"
    finally:
        context.close()
