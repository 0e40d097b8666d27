"""In Chromium, at 1280x720 and on a 390x844 phone: the home page's first screen holds every part
(play, the player's games or signing up, today's puzzle, a game being played now), logged out and
in; the watch page lists the games being played and follows their scores live; both pass axe-core.

The players' moves are real POSTs to the live daphne, so the watch list's push leaves the process
that committed the move, as it does in production."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, expect

from games.engine.game import legal_actions
from games.play import services
from games.play.models import Game
from games.puzzles import services as puzzle_services
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.e2e.test_board_fits import LAPTOP, PHONE, in_view, no_sideways_scroll
from tests.live.support import session_key
from tests.play.factories import as_form, computer_game, fixed_secrets, human_game, make_user, play_out
from tests.tournaments.test_e2e_live_scores import _player, _post_move

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

SIZES = (("phone", PHONE), ("laptop", LAPTOP))
# Each part's heading and the first of what it holds: on the first screen, never scrolled to.
PARTS = ["#play-h", "[data-testid=play-computer]", "[data-testid=play-friend]", "#mine-h", "#puzzle-h",
         ".front-puzzle__cards", "#live-h"]


@pytest.fixture(autouse=True)
def _same_deals(monkeypatch):
    fixed_secrets(monkeypatch, "front-door")


def _pegging(game: Game, users: dict) -> None:
    """Play on until the play has begun and someone has pegged: a board worth watching."""
    play_out(game, users, random.Random(5),
             stop=lambda s: s.phase == "play" and len(s.plays) >= 2 and sum(s.scores) > 0)


def test_the_first_screen_and_the_watch_list(browser: Browser, live_daphne: str):
    puzzle_services.puzzle_of_today()  # out already, whatever the hour the test runs at
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = human_game(alice, bob)
    _pegging(game, {0: alice, 1: bob})
    computer = computer_game(carol)
    _pegging(computer, {0: carol})
    secret = services.game_create_seek(user=make_user("dave"), rules=game.house_rules, private=True)
    services.game_accept(user=make_user("erin"), game_id=secret.pk)
    _a_score_through_the_server(browser, live_daphne, game, {0: alice, 1: bob})

    for size, viewport in SIZES:
        for who in (None, alice):
            context = browser.new_context(viewport=viewport)
            if who is not None:
                context.add_cookies([{"name": "sessionid", "value": session_key(who), "url": live_daphne}])
            page = context.new_page()
            page.goto(live_daphne + "/")
            expect(page.locator(".front-board")).to_have_attribute("data-state", "open")
            tag = f"{size}-{'in' if who else 'out'}"
            screenshot(page, f"home-{tag}", full_page=False)
            no_sideways_scroll(page)
            for selector in PARTS:
                in_view(page, selector)
            # The game being played begins on the first screen: on a phone its table's top, beside the
            # rest on a laptop the table and the pegboard too.
            board = page.locator(".front-board #card-table").bounding_box()
            assert board["y"] < viewport["height"] - 150, f"{tag}: the board begins below the fold"
            if size == "laptop":
                in_view(page, ".front-board .board-svg")
            mine = page.locator(".front-mine")
            if who is None:
                expect(mine.get_by_role("link", name="Sign up free")).to_be_visible()
            else:
                expect(mine.get_by_role("link", name="Live against bob")).to_be_visible()
            assert serious_axe_violations(page) == [], tag
            context.close()

        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(live_daphne + "/watch/")
        expect(page.locator("#watch-connection")).to_have_attribute("data-state", "open")
        listed = page.locator(".live-game")
        expect(listed).to_have_count(2)  # the private game is not among them
        expect(listed.first).to_contain_text("alice")  # people before the computer
        screenshot(page, f"watch-{size}", full_page=False)
        no_sideways_scroll(page)
        assert serious_axe_violations(page) == [], size
        if size == "laptop":
            _scores_live(page, browser, live_daphne, game, {0: alice, 1: bob})
        # Any game listed opens as a spectator's board, followed over its socket.
        page.locator(f"#live-game-{game.pk} a").click()
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        expect(page.locator("#board.board-page--watch")).to_be_visible()
        screenshot(page, f"spectator-{size}", full_page=False)
        assert serious_axe_violations(page) == [], size
        context.close()
    _one_click(browser, live_daphne, alice)
    _next_game(browser, live_daphne, game, alice, computer)


def _next_game(browser: Browser, live_daphne: str, game: Game, player, then: Game) -> None:
    """The game shown on the home page ends: its result, then the next game being played."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(live_daphne + "/")
    board = page.locator("#front-live .front-board")
    expect(board).to_have_attribute("data-state", "open")
    expect(board).to_have_attribute("data-socket", f"/ws/watch/{game.pk}/")
    page.evaluate("document.getElementById('front-live').dataset.nextAfterMs = '0'")  # no pause to wait out
    players = _player(browser, live_daphne, player)
    game.refresh_from_db()
    _post_move(players, game, {"type": "resign", "version": game.version})
    expect(board).to_have_attribute("data-socket", f"/ws/watch/{then.pk}/")
    expect(page.locator("#live-h")).to_contain_text("carol")
    players.close()
    context.close()


def _one_click(browser: Browser, live_daphne: str, alice) -> None:
    """One tap on a strength, one on the button: a game at that strength, remembered next time."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": live_daphne}])
    page = context.new_page()
    page.goto(live_daphne + "/")
    expect(page.get_by_label("Standard")).to_be_checked()
    page.get_by_text("Expert", exact=True).click()
    page.get_by_test_id("play-computer").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    assert Game.objects.get(vs_computer=True, seats__user=alice).computer_level == "expert"
    page.goto(live_daphne + "/")
    expect(page.get_by_label("Expert")).to_be_checked()
    context.close()


def _a_score_through_the_server(browser: Browser, live_daphne: str, game: Game, users: dict):
    """Moves made on the live server, as every move is, until someone scores; the state then. The
    server's own record of the list of games (its cache, which earlier tests' pages may have filled)
    changes with a score, so it knows the games set up here."""
    players = {seat: _player(browser, live_daphne, user) for seat, user in users.items()}
    rng = random.Random(9)
    game.refresh_from_db()
    before = list(services.load_state(game).scores)
    while True:
        game.refresh_from_db()
        state = services.load_state(game)
        if list(state.scores) != before:
            break
        seat = min(state.to_act)
        move = as_form(rng.choice(legal_actions(state, seat)))
        _post_move(players[seat], game, {**move, "version": game.version})
    for context in players.values():
        context.close()
    return state


def _scores_live(page, browser: Browser, live_daphne: str, game: Game, users: dict) -> None:
    """A player scores: the list on the open page shows the new score without a reload."""
    page.evaluate("window.__notReloaded = true")
    state = _a_score_through_the_server(browser, live_daphne, game, users)
    row = page.locator(f"#live-game-{game.pk} .live-game__score")
    for side, score in enumerate(state.scores):
        expect(row.nth(side)).to_have_text(str(score))
    assert page.evaluate("window.__notReloaded") is True
    screenshot(page, "watch-laptop-after-a-score", full_page=False)
