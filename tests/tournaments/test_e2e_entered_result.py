"""In Chromium, at a desktop's size and a phone's: the board, the record, the replay, My games, the
statistics and the lobby of a match whose result the director entered show that result (its games and
scores, marked as entered), not the 0–0 of the resignation the game was ended by. Screenshots are
saved to look at."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, expect

from games.play.models import Game
from games.tournaments import services
from tests.e2e.helpers import screenshot
from tests.play.factories import play_out

from .helpers import active_matches, make_players, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"1280": {"width": 1280, "height": 720}, "390": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_the_board_and_the_record_show_the_entered_result(live_daphne: str, browser: Browser, size: str):
    t = make_tournament(make_players(2), format="rr", name="Club Night", match_games=3)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    game = Game.objects.get(pk=m.game_id)
    # A deal or so on the board before the players finished the match on paper.
    play_out(game, {0: m.entrant1.user, 1: m.entrant2.user}, random.Random(2), stop=lambda s: s.deal_no >= 1)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="Finished on paper at the club",
                              scores="121-97, 88-121, 121-85")

    client = Client()
    client.force_login(m.entrant1.user)
    context = browser.new_context(base_url=live_daphne, viewport=SIZES[size])
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_daphne,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"/games/{game.pk}/")
        result = page.locator("section.result")
        expect(result.get_by_role("heading")).to_have_text("You win 121–85 (skunk, entered by the director)")
        expect(result).to_contain_text("Final score: You 121 – p2 85.")
        expect(result).to_contain_text("Match: You 2 – p2 1. You win the match.")
        expect(page.locator("#board .game-facts .house-rules").first).to_contain_text("match 2–1")
        result.scroll_into_view_if_needed()
        screenshot(page, f"entered-result-board-{size}", full_page=False)
        screenshot(page, f"entered-result-board-{size}-full")

        page.get_by_role("link", name="Game record").click()
        expect(page.locator(".record-result h2")).to_contain_text("p1 won the match p1 2 – p2 1")
        expect(page.locator(".record-result h2")).to_contain_text("entered by the director")
        games = page.locator(".record-game")
        expect(games).to_have_count(3)
        expect(games.nth(1)).to_have_text(
            "Game 2: p2 won (skunk, entered by the director); final score p1 88 – p2 121.")
        expect(page.get_by_test_id("final-score").first).to_have_text("p1 121 – p2 97")
        screenshot(page, f"entered-result-record-{size}", full_page=False)
        screenshot(page, f"entered-result-record-{size}-full")

        page.get_by_role("link", name="Replay").click()
        page.get_by_role("button", name="Last").click()
        expect(page.locator(".replay-results")).to_contain_text(
            "p1 wins the match 2–1 (entered by the director).")
        screenshot(page, f"entered-result-replay-{size}")

        page.goto(f"/players/{m.entrant1.user.username}/games/")
        row = page.locator(f'.history-row[data-game="{game.pk}"]')
        expect(row).to_contain_text("Won (entered by the director)")
        expect(row).to_contain_text("121–85")
        screenshot(page, f"entered-result-my-games-{size}")

        page.goto(f"/players/{m.entrant1.user.username}/stats/")
        expect(page.locator('[data-stat="entered"]').first).to_contain_text(
            "1 game whose result the director entered is left out")
        screenshot(page, f"entered-result-stats-{size}")

        page.goto("/lobby/")
        expect(page.get_by_text("Won (entered by the director)")).to_be_visible()
        screenshot(page, f"entered-result-lobby-{size}")
    finally:
        context.close()
