"""In Chromium: a spectator's tournament page follows a match in play without a reload, and so does
the board of the match they watch.

The players' moves are real POSTs to the live daphne (with their sessions and CSRF tokens, as htmx
sends them), so the push to the tournament's watchers leaves the process that committed the move,
as it does in production."""

from __future__ import annotations

import random
import urllib.parse

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.engine.game import legal_actions
from games.play import services as game_services
from games.play.models import Game
from games.tournaments import services
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.play.factories import as_form

from .helpers import active_matches, make_players, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _player(browser: Browser, base_url: str, user) -> BrowserContext:
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base_url,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    return context


def _post_move(context: BrowserContext, game: Game, data: dict) -> None:
    if not any(c["name"] == settings.CSRF_COOKIE_NAME for c in context.cookies()):
        assert context.request.get(f"/games/{game.pk}/").ok  # the board page sets the CSRF cookie
    token = next(c["value"] for c in context.cookies() if c["name"] == settings.CSRF_COOKIE_NAME)
    fields = [(k, v) for k, vs in data.items() for v in (vs if isinstance(vs, list) else [vs])]
    response = context.request.post(
        f"/games/{game.pk}/act/",
        data=urllib.parse.urlencode(fields),
        headers={"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": token,
                 "HX-Request": "true"},
    )
    assert response.status == 200, response.text()[:300]


def test_a_spectator_sees_the_score_of_a_match_in_play_change_live(live_daphne: str, page: Page,
                                                                   browser: Browser):
    page.set_default_timeout(15000)
    t = make_tournament(make_players(4), format="ko", name="Friday Knockout")
    services.tournament_start(tournament_id=t.pk)
    match = active_matches(t)[0]
    game = Game.objects.get(pk=match.game_id)
    players = {0: _player(browser, live_daphne, match.entrant1.user),
               1: _player(browser, live_daphne, match.entrant2.user)}

    page.goto(f"{live_daphne}{t.get_absolute_url()}")  # an anonymous spectator
    expect(page.locator(".tournament")).to_have_attribute("data-state", "open")
    expect(page.locator(".t-live-score").first).to_have_text("cutting for deal")
    page.evaluate("window.__notReloaded = true")

    rng = random.Random(3)

    def play(until) -> object:
        while True:
            game.refresh_from_db()
            state = game_services.load_state(game)
            if until(state):
                return state
            seat = min(state.to_act)
            data = as_form(rng.choice(legal_actions(state, seat)))
            _post_move(players[seat], game, {**data, "version": game.version})

    try:
        # The cut, the first deal's discards, play and show, up to the second deal.
        state = play(lambda s: s.deal_no == 1)
        a, b = state.scores
        expect(page.locator(".t-live-score").first).to_have_text(f"{a}–{b}, deal 2")
        expect(page.locator("text.score.live").nth(0)).to_have_text(str(a))
        expect(page.locator("text.score.live").nth(1)).to_have_text(str(b))
        assert page.evaluate("window.__notReloaded") is True  # pushed over the socket, not reloaded
        screenshot(page, "tournament-live-score")
        assert serious_axe_violations(page) == []

        # Watching the match: the board follows each move, the hands stay face down.
        page.get_by_role("link", name=f"Watch {match.entrant1.name} v {match.entrant2.name}").click()
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        page.evaluate("window.__notReloaded = true")
        before = int(page.locator("#board").get_attribute("data-version"))
        state = play(lambda s: s.phase == "play" and len(s.plays) >= 2)
        game.refresh_from_db()
        expect(page.locator("#board")).to_have_attribute("data-version", str(game.version))
        assert game.version > before and page.evaluate("window.__notReloaded") is True
        expect(page.locator(".pile")).to_contain_text(f"{match.entrant1.name}:" if state.plays[0][0] == 0
                                                      else f"{match.entrant2.name}:")
        expect(page.locator("#board form")).to_have_count(0)
        screenshot(page, "tournament-watch")
        assert serious_axe_violations(page) == []
    finally:
        for context in players.values():
            context.close()
