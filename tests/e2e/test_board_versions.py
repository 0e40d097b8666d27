"""A board never steps back. A push older than the board shown, or the board shown pushed again, is
not drawn, nor are the calls and the presence it carries; a newer one is. An answer older than the
board shown (a push overtook it) is not swapped in. The page reads a push's version from the board
htmx parsed and an answer's from its Board-Version header: the board's HTML is parsed once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from games.play.board.player import render_board_oob
from games.play.models import Game
from tests.e2e.board_watch import FETCH_BOARD, LAPTOP, laid_away_deal, open_game, version, wait_past
from tests.live.support import HttpPlayer, session_key
from tests.play.factories import act, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def dealt(name: str) -> tuple[Game, object, object]:
    alice, bob = make_user(f"alice-{name}"), make_user(f"bob-{name}")
    game = laid_away_deal(alice, bob)
    game.refresh_from_db()
    return game, alice, bob


def bob_plays_the_king(live_daphne: str, game: Game, bob, page: Page) -> int:
    bobs = HttpPlayer(live_daphne, session_key(bob))
    status, _ = bobs.act(game.pk, game.version, {"type": "play", "card": "KH"})
    assert status == 200
    wait_past(page, game.version)
    return game.version + 1


def test_a_push_not_newer_than_the_board_shown_is_not_drawn(browser: Browser, live_daphne: str):
    game, alice, bob = dealt("push-versions")
    older = render_board_oob(game.pk, alice, "x" * 64)
    page = open_game(browser, live_daphne, alice, game, LAPTOP)
    now = bob_plays_the_king(live_daphne, game, bob, page)
    same = render_board_oob(game.pk, alice, "x" * 64)
    # A mark in the calls' line: any push drawn, calls included, replaces what the line holds.
    page.evaluate("() => document.getElementById('announce').insertAdjacentHTML('beforeend', "
                  "'<span id=\"mark\"></span>')")
    push = "(html) => htmx.swap(document.querySelector('.board-live'), html, {swapStyle: 'none'})"
    for html in (older, same):
        page.evaluate(push, html)
        assert version(page) == now
        assert page.locator("#mark").count() == 1
        assert page.locator("#seat-1 .card--back").count() == 3  # bob's king is on the pile, not back
    act(Game.objects.get(pk=game.pk), alice, {"type": "play", "card": "5D"})
    page.evaluate(push, render_board_oob(game.pk, alice, "x" * 64))
    assert version(page) == now + 1
    assert page.locator("#mark").count() == 0
    assert page.locator("#pile-5D").count() == 1
    page.context.close()


def test_an_answer_older_than_the_board_shown_is_not_swapped_in(browser: Browser, live_daphne: str):
    game, alice, bob = dealt("answer-versions")
    page = open_game(browser, live_daphne, alice, game, LAPTOP)
    older, seen = page.evaluate(FETCH_BOARD), game.version
    now = bob_plays_the_king(live_daphne, game, bob, page)
    # Alice's move is answered with the board of before bob's king, as if a push had overtaken it.
    headers = {"Content-Type": "text/html; charset=utf-8", "Board-Version": str(seen)}
    page.route(f"**/games/{game.pk}/act/",
               lambda route: route.fulfill(status=200, body=older, headers=headers))
    page.evaluate("() => { window.__answered = new Promise((done) => "
                  "document.addEventListener('htmx:afterOnLoad', done, {once: true})); }")
    page.locator("#play-5D").click()
    page.evaluate("() => window.__answered")
    assert version(page) == now
    assert page.locator("#pile-KH").count() == 1
    page.context.close()

