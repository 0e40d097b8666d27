"""Everything a player needs to act fits one 1280x720 screen in every phase, without scrolling:
their hand, the action, the count and the last cards played, both scores. On a 390x844 phone
nothing scrolls sideways. The same for the replay's step buttons and the cards that change.

Each phase is reached through the services (a game against the computer, played with random legal
moves for the person), then opened in the browser at both sizes and photographed."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.game import GameState
from games.engine.rules import HouseRules
from games.history.replay_board import shown_moves
from games.play import services
from games.play.models import Game, Move
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import computer_game, fixed_secrets, load, make_user, play_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 720}
RULES = HouseRules(pone_cuts=True)


@pytest.fixture(autouse=True)
def _same_deals(monkeypatch):
    """The same shuffles on every run: which seat deals, and so which headings and rows the table
    draws, would otherwise change from one run to the next."""
    fixed_secrets(monkeypatch, "fits")


def settle(game: Game) -> None:
    """Let the computer take every move it is due, so the page opens on a board that waits for the
    person (the computer's turn would otherwise be taken by the page itself, under the test)."""
    for _ in range(50):
        if not services.computer_to_act(game):
            return
        services.game_computer_step(game_id=game.pk)
        game.refresh_from_db()


def reach(user, stop: Callable[[GameState], bool], *, seed: int = 2, rules: HouseRules = RULES) -> Game:
    game = computer_game(user, rules=rules)
    play_out(game, {0: user}, random.Random(seed), stop=stop)
    settle(game)
    game.refresh_from_db()
    return game


def _mine(state: GameState) -> bool:
    return 0 in state.to_act


PHASES: dict[str, Callable[[GameState], bool]] = {
    "cut": lambda s: s.phase == "cut",
    "discard": lambda s: s.phase == "discard",
    # The pone cuts the pack: the person is pone in every other deal.
    "starter": lambda s: s.phase == "starter" and s.turn == 0,
    # In the second deal (the last deal's show folded by the table), cards already on the count.
    "play": lambda s: s.phase == "play" and s.turn == 0 and s.count > 0 and s.deal_no >= 1,
    "show": lambda s: s.phase == "show" and s.turn is None and _mine(s) and s.deal_no >= 1,
    "over": lambda s: False,
}


def open_page(browser: Browser, live_daphne: str, user, path: str, viewport: dict) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(user), "url": live_daphne}])
    page = context.new_page()
    page.goto(live_daphne + path)
    return page


def in_view(page: Page, selector: str) -> dict:
    """The element's box at the top of the page (never scrolled): it must lie within the screen."""
    assert page.evaluate("() => window.scrollY") == 0
    target = page.locator(selector).first
    expect(target).to_be_visible()
    box = target.bounding_box()
    height = page.viewport_size["height"]
    width = page.viewport_size["width"]
    top, bottom = box["y"], box["y"] + box["height"]
    assert top >= 0 and bottom <= height, f"{selector} at y={top:.0f}..{bottom:.0f}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{selector} at x={box['x']:.0f}"
    return box


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate(
        "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"
    ), "the page scrolls sideways"


# What a player must see to act, phase by phase (the scores are on the pegboard's legend and on
# each seat).
NEEDED = {
    "cut": [".seat--me .fan", ".board-scores", ".seat--opponent .seat__score"],
    "discard": [".seat--me .discard-form .hand", ".discard-submit", ".board-scores",
                ".seat--opponent .seat__score"],
    "starter": [".seat--me .hand", ".cut-starter-form button", ".cut-pack__button", ".board-scores"],
    "play": [".seat--me .play-form .hand", ".pile .cards", "[data-testid=count]", ".board-scores",
             ".seat--opponent .seat__score", ".seat--me .seat__score"],
    "show": [".seat--me .hand", "button[value=next_deal]", ".seat--opponent .cards", ".crib .cards",
             ".board-scores"],
    # A game won in the play keeps its last pile and count on the table (checked when it was).
    "over": ["section.result", "a.button--primary, button.button--primary", ".board-scores",
             ".seat--opponent .seat__score", ".seat--me .seat__score"],
}


@pytest.mark.parametrize("phase", list(PHASES))
def test_the_board_fits_a_laptop_and_a_phone_in_every_phase(browser: Browser, live_daphne: str, phase: str):
    alice = make_user(f"alice-{phase}")
    if phase == "over":
        game = computer_game(alice, rules=RULES)
        play_out(game, {0: alice}, random.Random(3))
        game.refresh_from_db()
        assert game.status != Game.Status.ACTIVE
    else:
        game = reach(alice, PHASES[phase])
        assert PHASES[phase](load(game)), f"the game is not in {phase}"
    for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page = open_page(browser, live_daphne, alice, f"/games/{game.pk}/", viewport)
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        page.wait_for_timeout(300)  # the pegs settle
        # What the screen shows before any scroll, kept even when a check below fails.
        screenshot(page, f"fits-{phase}-{name}", full_page=False)
        no_sideways_scroll(page)
        if name == "laptop":
            for selector in NEEDED[phase]:
                in_view(page, selector)
            if phase == "over" and page.locator(".pile").count():
                in_view(page, ".pile .cards")
                in_view(page, "[data-testid=count]")
        if name == "phone" and phase in ("discard", "starter", "play"):
            in_view(page, ".seat--me .hand")  # the table comes first: the hand shows without a scroll
        if phase == "show":
            fanned_so_each_card_reads(page)
        if phase in ("play", "show"):
            assert serious_axe_violations(page) == []
        if phase == "play":
            page.locator("details.last-deal > summary").click()
            expect(page.locator("details.last-deal .counted-hand").first).to_be_visible()
            # The board is drawn again (as a push does): the fold the reader opened stays open.
            page.evaluate("() => htmx.ajax('GET', location.pathname, "
                          "{target: '#board', select: '#board', swap: 'outerHTML'})")
            page.wait_for_timeout(500)
            expect(page.locator("details.last-deal .counted-hand").first).to_be_visible()
            screenshot(page, f"fits-last-deal-{name}")
        page.context.close()


def fanned_so_each_card_reads(page: Page) -> None:
    """The opponent's hand and the crib, laid open in the show: each card shows its corner (rank
    and suit, about a third of a small card) beside the next, and the hand's score stands by it."""
    fans = page.locator("#board .table .cards--fan")
    assert fans.count() == 2  # the opponent's hand and the crib
    for i in range(fans.count()):
        cards = fans.nth(i).locator(".card")
        boxes = [cards.nth(k).bounding_box() for k in range(cards.count())]
        assert len(boxes) == 4
        for k, (left, right) in enumerate(zip(boxes, boxes[1:], strict=False)):
            assert right["x"] - left["x"] >= 0.4 * left["width"]
            corner = cards.nth(k).locator(".card__corner--top").bounding_box()
            assert corner["x"] + corner["width"] <= right["x"], f"card {k}'s corner is covered"
    expect(page.locator("#board .seat--opponent .shown-score")).to_contain_text("scored")
    expect(page.locator("#board .crib .shown-score")).to_contain_text("scored")


@pytest.mark.parametrize("where", ["middle", "last"])
def test_the_replay_fits_a_laptop_and_a_phone(browser: Browser, live_daphne: str, where: str):
    alice = make_user(f"alice-replay-{where}")
    game = computer_game(alice, rules=RULES)
    play_out(game, {0: alice}, random.Random(3))
    shown = shown_moves(list(Move.objects.filter(game=game).order_by("seq")))
    step = shown[len(shown) // 2] if where == "middle" else shown[-1]
    for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page = open_page(browser, live_daphne, alice, f"/games/{game.pk}/replay/?step={step}", viewport)
        expect(page.get_by_test_id("step")).to_be_visible()
        screenshot(page, f"fits-replay-{where}-{name}", full_page=False)
        no_sideways_scroll(page)
        if name == "laptop":
            for selector in ("[data-replay=prev]", "[data-replay=next]", "[data-testid=what]",
                             ".replay-rail .board-scores", ".replay-table .table__middle, .replay-results"):
                in_view(page, selector)
            # Each seat: its score, and its cards while it holds any.
            seats = page.locator(".replay-table .seat")
            assert seats.count() == 2
            for k in range(seats.count()):
                in_view(page, f".replay-table .seat >> nth={k} >> .seat__score")
                if seats.nth(k).locator(".cards li").count():
                    in_view(page, f".replay-table .seat >> nth={k} >> .cards")
            # A step forward changes only what is drawn: the buttons stay where the pointer is.
            before = page.locator("[data-replay=next]").bounding_box()
            if where == "middle":
                page.locator("[data-replay=next]").click()
                expect(page).not_to_have_url(f"{live_daphne}/games/{game.pk}/replay/?step={step}")
                assert page.locator("[data-replay=next]").bounding_box() == before
        assert serious_axe_violations(page) == []
        page.context.close()


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("laptop", LAPTOP)])
def test_the_statistics_tables_have_room_round_their_titles(browser: Browser, live_daphne: str, name: str,
                                                           viewport: dict):
    alice = make_user(f"alice-stats-{name}")
    game = computer_game(alice, rules=HouseRules(target=61))
    play_out(game, {0: alice}, random.Random(4))
    page = open_page(browser, live_daphne, alice, f"/players/{alice.username}/stats/", viewport)
    expect(page.locator(".stats-table caption").first).to_be_visible()
    screenshot(page, f"stats-{name}")
    no_sideways_scroll(page)
    for k in range(page.locator(".table-wrap").count()):
        wrap = page.locator(".table-wrap").nth(k).bounding_box()
        caption = page.locator(".table-wrap").nth(k).locator("caption").bounding_box()
        table = page.locator(".table-wrap").nth(k).locator("table").bounding_box()
        text = page.locator(".table-wrap").nth(k).locator("caption").evaluate(
            "c => { const r = document.createRange(); r.selectNodeContents(c);"
            " const b = r.getBoundingClientRect(); return {x: b.x, y: b.y}; }")
        assert text["x"] - wrap["x"] >= 8, "the title touches the box's left edge"
        assert text["y"] - wrap["y"] >= 6, "the title touches the box's top edge"
        # No empty band under the table inside its box.
        assert wrap["y"] + wrap["height"] - (table["y"] + table["height"]) <= 2
        assert caption["y"] >= wrap["y"]
    assert serious_axe_violations(page) == []
    page.context.close()
