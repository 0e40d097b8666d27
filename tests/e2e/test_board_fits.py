"""One table per screen: at 1280x720 and on a 390x844 phone, in every phase, the page is the
screen's height and no more; the player's hand, the action, the count and the last cards played,
both scores and the pegboard are on screen; the log, the rules and chat are a click away (on a
laptop in a side panel that scrolls within the screen). Calls have a lane of their own: they cover
no card, score, count box or control and move nothing. No label wraps past two lines.

Each phase is reached through the services (a game against the computer, or between two people,
played with random legal moves for the people), then opened in the browser at both sizes and
photographed."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.game import GameState
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.e2e.table_checks import (
    LABELS,
    LONG_CALLS,
    assert_calls_cover_nothing,
    assert_covers_nothing,
    assert_page_is_the_screen,
    labels_past_two_lines,
    settled,
    show_calls,
    watch_calls,
    watched_calls,
)
from tests.live.support import session_key
from tests.play.factories import (
    act,
    as_form,
    computer_game,
    fixed_secrets,
    human_game,
    load,
    make_user,
    play_out,
    random_action,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 720}
RULES = HouseRules(pone_cuts=True)
COUNTING = HouseRules(pone_cuts=True, manual_counting=True, muggins=True)


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


def _counting(status: str, kind: str | None = None) -> Callable[[GameState], bool]:
    """The show with manual counting, the person (seat 0) on turn and the entry being counted in
    ``status``: "due" (theirs to count) or "muggins" (the computer's count, theirs to answer)."""
    def stop(s: GameState) -> bool:
        return (s.phase == "show" and s.turn == 0 and bool(s.show) and s.show[-1].status == status
                and (kind is None or s.show[-1].kind == kind))
    return stop


PHASES: dict[str, Callable[[GameState], bool]] = {
    "cut": lambda s: s.phase == "cut",
    "discard": lambda s: s.phase == "discard",
    # The pone cuts the pack: the person is pone in every other deal.
    "starter": lambda s: s.phase == "starter" and s.turn == 0,
    # In the second deal (the last deal's show folded by the table), cards already on the count.
    "play": lambda s: s.phase == "play" and s.turn == 0 and s.count > 0 and s.deal_no >= 1,
    # Every hand counted: "Next hand" waits for the person.
    "show": lambda s: s.phase == "show" and s.turn is None and _mine(s) and s.deal_no >= 1,
    # Manual counting: the dealer counts their crib (the most cards on the table), then answers
    # the computer's count of its hand with Muggins! or Accept.
    "count": _counting("due", "crib"),
    "answer": _counting("muggins"),
    "over": lambda s: False,
    "waiting": lambda s: False,
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


def boxes(page: Page, selectors: list[str]) -> list[dict | None]:
    """Every box read in one go, so none is read at another moment of a transition."""
    return page.evaluate("""(selectors) => selectors.map((s) => {
        const el = document.querySelector(s);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    })""", selectors)


def overlaps(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# The pegboard and both scores are on screen in every phase; then what the player needs to act.
ALWAYS = ["#board .board-svg", "#board .board-scores"]
NEEDED = {
    "cut": [".seat--me .fan", ".seat--opponent .seat__score"],
    "discard": [".seat--me .discard-form .hand", ".discard-submit", ".seat--opponent .seat__score"],
    "starter": [".seat--me .hand", ".cut-starter-form button", ".cut-pack__button"],
    "play": [".seat--me .play-form .hand", ".pile .cards", "[data-testid=count]",
             ".seat--opponent .seat__score", ".seat--me .seat__score"],
    "show": [".seat--me .hand", "button[value=next_deal]", ".seat--opponent .cards", ".crib .cards"],
    "count": [".seat--me .hand", ".crib .cards", ".seat--me .count-form input[name=points]",
              ".seat--me .count-form button", ".seat--me .seat__score", ".seat--opponent .seat__score"],
    "answer": [".seat--opponent .cards", ".seat--opponent .muggins-form button[value=call_muggins]",
               ".seat--opponent .muggins-form button[value=accept_count]", ".seat--me .hand",
               ".seat--opponent .seat__score"],
    # A game won in the play keeps its last pile and count on the table (checked when it was).
    "over": ["section.result", "a.button--primary, button.button--primary",
             ".seat--opponent .seat__score", ".seat--me .seat__score"],
    "waiting": [".seat--me .hand", ".seat--me .hint", ".seat--opponent .seat__score", "#presence"],
}


def make_game(phase: str, tag: str = "") -> tuple[object, Game]:
    alice = make_user(f"alice-{phase}{tag}")
    if phase == "over":
        game = computer_game(alice, rules=RULES)
        play_out(game, {0: alice}, random.Random(3))
        game.refresh_from_db()
        assert game.status != Game.Status.ACTIVE
        return alice, game
    if phase == "waiting":
        # A game between two people: alice has laid away, bob has not.
        bob = make_user(f"bob-{phase}{tag}")
        game = human_game(alice, bob, rules=RULES)
        play_out(game, {0: alice, 1: bob}, random.Random(2), stop=lambda s: s.phase == "discard")
        act(game, alice, as_form(random_action(load(game), 0, random.Random(2))))
        state = load(game)
        assert state.phase == "discard" and state.to_act == (1,)
        return alice, game
    game = reach(alice, PHASES[phase], rules=COUNTING if phase in ("count", "answer") else RULES)
    assert PHASES[phase](load(game)), f"the game is not in {phase}"
    return alice, game


@pytest.mark.parametrize("phase", list(PHASES))
def test_the_board_fits_a_laptop_and_a_phone_in_every_phase(browser: Browser, live_daphne: str, phase: str):
    for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        # A game for each size: the checks below make moves.
        alice, game = make_game(phase, "" if name == "phone" else "-2")
        page = open_page(browser, live_daphne, alice, f"/games/{game.pk}/", viewport)
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        settled(page)
        # What the screen shows before any scroll, kept even when a check below fails.
        screenshot(page, f"fits-{phase}-{name}", full_page=False)
        where = f"{phase} on a {name}"
        assert_page_is_the_screen(page, where)
        no_sideways_scroll(page)
        assert labels_past_two_lines(page, LABELS) == [], where
        for selector in ALWAYS + NEEDED[phase]:
            in_view(page, selector)
        if phase == "over" and page.locator(".pile").count():
            in_view(page, ".pile .cards")
            in_view(page, "[data-testid=count]")
        if name == "phone":
            in_view(page, ".board-drawer__toggle")
            expect(page.locator("#board .score-log")).to_be_hidden()  # the log waits in the drawer
        else:
            # The side column beside the table, the log in it, scrolling within the screen.
            in_view(page, "#board .board-drawer")
            expect(page.locator("#board .score-log")).to_be_visible()
        if phase == "show":
            fanned_so_each_card_reads(page)
        if phase in ("play", "show", "count", "answer", "waiting"):
            assert serious_axe_violations(page) == []
        calls_and_chat_move_nothing(page, phase, name)
        if phase == "play":
            the_table_holds_still_through_a_turn(page, name)
            if name == "phone":
                page.locator(".board-drawer__toggle").click()
            page.locator("details.last-deal > summary").click()
            expect(page.locator("details.last-deal .counted-hand").first).to_be_visible()
            # The board is drawn again and morphed in (as a push is): the folds the reader opened stay open.
            page.evaluate("() => { document.getElementById('board').dataset.drawnBefore = ''; }")
            page.evaluate("() => htmx.ajax('GET', location.pathname, "
                          "{source: '#board', target: '#board', select: '#board', swap: 'morph'})")
            page.wait_for_function("() => !('drawnBefore' in document.getElementById('board').dataset)")
            expect(page.locator("details.last-deal .counted-hand").first).to_be_visible()
            screenshot(page, f"fits-last-deal-{name}", full_page=False)
        if phase == "count":
            a_refused_count_is_told_by_the_count_box(page, name)
            a_count_calls_clear_of_the_count(page, name)
        page.context.close()


def calls_and_chat_move_nothing(page: Page, phase: str, name: str) -> None:
    """Three long calls and a chat line appear: nothing on the page moves, every call drawn lies on
    the screen, and none covers a card, a score, the pegboard, the count box or a control."""
    watched = ["#board .table", "#board .seat--me", "#board .board-svg", "#board .board-scores",
               "#board .game-header", "#board .seat--opponent"]
    before = boxes(page, watched)
    show_calls(page, LONG_CALLS)
    page.evaluate("() => { const chat = document.getElementById('chat-line');"
                  " if (chat) chat.textContent = 'Good luck!'; }")
    assert boxes(page, watched) == before, "a call moved the table"
    assert_calls_cover_nothing(page, f"{phase} on a {name}")
    screenshot(page, f"fits-calls-{phase}-{name}", full_page=False)
    page.evaluate("() => { document.getElementById('announce').replaceChildren();"
                  " const chat = document.getElementById('chat-line'); if (chat) chat.textContent = ''; }")


def a_count_calls_clear_of_the_count(page: Page, name: str) -> None:
    """A real count (too many, so it is corrected and called): each time calls come, from it and
    from the computer's count after it, they cover neither the crib just counted, the next count
    box nor any control."""
    watch_calls(page)
    page.locator(".seat--me .count-form input[name=points]").fill("29")
    page.locator(".seat--me .count-form button").click()
    for seen in watched_calls(page):
        assert_covers_nothing(seen, f"a count's calls on a {name}")
    settled(page)
    screenshot(page, f"fits-count-called-{name}", full_page=False)


def the_table_holds_still_through_a_turn(page: Page, name: str) -> None:
    """A card played, the computer's answer, the player's turn again: the table, the hand's seat
    and the pegboard never move (a form that only waits for the computer took a row and the table
    dropped under it), read on every frame of the turn."""
    version = int(page.locator("#board").get_attribute("data-version"))
    page.evaluate("""() => {
        window.__tops = [];
        const watch = () => {
            const at = (s) => {
                const el = document.querySelector(s);
                return el ? Math.round(el.getBoundingClientRect().top) : null;
            };
            window.__tops.push([at("#board .table"), at("#board .board-svg"), at("#board .game-header")]);
            window.__watching = requestAnimationFrame(watch);
        };
        watch();
    }""")
    page.locator("#board .play-form .card-button.playable").first.click()
    page.wait_for_function("(v) => { const board = document.getElementById('board');"
                           " return Number(board.dataset.version) >= v + 2"
                           " && (board.hasAttribute('data-my-turn')"
                           " || !board.querySelector('.play-form .card-button.playable')); }", arg=version)
    tops = page.evaluate("() => { cancelAnimationFrame(window.__watching); return window.__tops; }")
    assert len({tuple(t) for t in tops if None not in t}) == 1, f"the table moved during a turn on a {name}"


def a_refused_count_is_told_by_the_count_box(page: Page, name: str) -> None:
    """A count the server refuses (an over-count is corrected, not refused: only a number no hand can
    be worth is, here sent past the box's own limit as an old browser would): the refusal shows by the
    count box, on screen, in the line kept for it (nothing moves, the cards being recounted stay
    uncovered), and the box keeps what was typed."""
    watched = ["#board .seat--me .hand", "#board .crib .cards", "#board .seat--me .count-form"]
    before = boxes(page, watched)
    box_input = ".seat--me .count-form input[name=points]"
    page.evaluate("(sel) => document.querySelector(sel).removeAttribute('max')", box_input)
    page.locator(".seat--me .count-form input[name=points]").fill("30")
    page.locator(".seat--me .count-form button").click()
    error = page.locator(".seat--me .count-controls .board-error")
    expect(error).to_contain_text("from 0 to 29")
    said = in_view(page, ".seat--me .count-controls .board-error")
    box = in_view(page, ".seat--me .count-form")
    assert box["y"] - (said["y"] + said["height"]) < 40, "the refusal is far from the count box"
    for cards in boxes(page, watched[:2]):
        assert not overlaps(said, cards), "the refusal covers the cards being counted"
    assert boxes(page, watched) == before, "the refusal moved the table"
    expect(page.locator(".seat--me .count-form input[name=points]")).to_have_value("30")
    screenshot(page, f"fits-count-refused-{name}", full_page=False)


def test_the_drawer_opens_from_the_keyboard_on_a_phone(browser: Browser, live_daphne: str):
    alice, game = make_game("play")
    page = open_page(browser, live_daphne, alice, f"/games/{game.pk}/", PHONE)
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    toggle = page.locator(".board-drawer__toggle")
    expect(toggle).to_have_accessible_name(re.compile(r"^Log and more"))
    toggle.focus()
    page.keyboard.press("Enter")
    for selector in ("#board .score-log", "#board [data-testid=commitment]",
                     "#board .game-facts p:first-of-type", "#board .resign-form button"):
        expect(page.locator(selector)).to_be_visible()
    panel = in_view(page, "#board .board-side")
    assert panel["y"] + panel["height"] == PHONE["height"]  # a sheet from the bottom of the screen
    in_view(page, ".board-drawer__toggle")  # and the button that closes it stays in sight
    screenshot(page, "fits-drawer-phone", full_page=False)
    assert serious_axe_violations(page) == []
    page.keyboard.press("Enter")
    expect(page.locator("#board .score-log")).to_be_hidden()
    # Escape closes the sheet from anywhere in it, as it closes a dialog, and focus returns to its button.
    toggle.click()
    page.locator("#board .score-log").focus()
    page.keyboard.press("Escape")
    expect(page.locator("#board .score-log")).to_be_hidden()
    expect(toggle).to_be_focused()
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
