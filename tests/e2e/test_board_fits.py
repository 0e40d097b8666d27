"""One table per screen: at 1280x720 and on a 390x844 phone, in every phase, the player's hand, the
action, the count and the last cards played, both scores and the pegboard are on screen without
scrolling; the log, the rules and chat are a click away. Calls and chat overlay the table and move
nothing. The same for the replay's step buttons and the cards that change.

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
from games.history.replay_board import shown_moves
from games.play import services
from games.play.models import Game, Move
from tests.e2e.helpers import screenshot, serious_axe_violations
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


def make_game(phase: str) -> tuple[object, Game]:
    alice = make_user(f"alice-{phase}")
    if phase == "over":
        game = computer_game(alice, rules=RULES)
        play_out(game, {0: alice}, random.Random(3))
        game.refresh_from_db()
        assert game.status != Game.Status.ACTIVE
        return alice, game
    if phase == "waiting":
        # A game between two people: alice has laid away, bob has not.
        bob = make_user(f"bob-{phase}")
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
    alice, game = make_game(phase)
    for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page = open_page(browser, live_daphne, alice, f"/games/{game.pk}/", viewport)
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        page.wait_for_timeout(300)  # the pegs settle
        # What the screen shows before any scroll, kept even when a check below fails.
        screenshot(page, f"fits-{phase}-{name}", full_page=False)
        no_sideways_scroll(page)
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
        if phase in ("play", "waiting"):
            calls_and_chat_move_nothing(page, name)
        if phase == "play":
            if name == "phone":
                page.locator(".board-drawer__toggle").click()
            page.locator("details.last-deal > summary").click()
            expect(page.locator("details.last-deal .counted-hand").first).to_be_visible()
            # The board is drawn again (as a push does): the folds the reader opened stay open.
            page.evaluate("() => htmx.ajax('GET', location.pathname, "
                          "{target: '#board', select: '#board', swap: 'outerHTML'})")
            page.wait_for_timeout(500)
            expect(page.locator("details.last-deal .counted-hand").first).to_be_visible()
            screenshot(page, f"fits-last-deal-{name}", full_page=False)
        if phase == "count":
            a_refused_count_is_told_by_the_count_box(page, name)
        page.context.close()


def calls_and_chat_move_nothing(page: Page, name: str) -> None:
    """Three long calls (they used to wrap onto rows of their own above the table) and a chat line
    appear: nothing on the page moves, and no call covers a score, the hand or the pegboard."""
    watched = ["#board .table", "#board .seat--me .hand", "#board .board-svg", "#board .board-scores",
               "#board .game-header", "#board .seat--me .seat__score",
               "#board .seat--opponent .seat__score"]
    before = boxes(page, watched)
    page.evaluate("""() => {
        const calls = ["Computer (easy): fifteen two, fifteen four and a pair is six",
                       "You: thirty-one for 2", "Computer (easy): go for 1, and the last card"];
        document.getElementById("announce").replaceChildren(...calls.map((text) => {
            const span = document.createElement("span"); span.className = "call"; span.textContent = text;
            return span;
        }));
        const chat = document.getElementById("chat-line");
        if (chat) chat.textContent = "Good luck!";
    }""")
    assert boxes(page, watched) == before, "a call moved the table"
    call = boxes(page, ["#announce"])[0]
    assert call["height"] > 0
    for selector, other in zip(watched[1:], before[1:], strict=True):
        if selector != "#board .game-header":
            assert not overlaps(call, other), f"the calls cover {selector}"
    screenshot(page, f"fits-calls-{name}", full_page=False)
    page.evaluate("() => document.getElementById('announce').replaceChildren()")


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


REPLAY_STEPS: dict[str, Callable[[Move], bool]] = {
    # The cut for deal shown once every seat has cut (the cuts before it are folded into it).
    "cut": lambda m: m.action["type"] == "cut_for_deal",
    "discard": lambda m: m.action["type"] == "discard",
    "go": lambda m: any(e["kind"] in ("go", "thirty_one") for e in m.events),
    "show": lambda m: any(e["kind"] == "crib" for e in m.events),
    "middle": lambda m: False,
    "last": lambda m: False,
}


@pytest.mark.parametrize("where", list(REPLAY_STEPS))
def test_the_replay_fits_a_laptop_and_a_phone(browser: Browser, live_daphne: str, where: str):
    """Every kind of step on one screen at both sizes: the buttons and what the step was, each
    seat's score and cards, the middle of the table, the pegboard and its score line; the step's
    calls, the show and the log wait in the drawer on a phone, beside the table on a laptop."""
    alice = make_user(f"alice-replay-{where}")
    game = computer_game(alice, rules=RULES)
    play_out(game, {0: alice}, random.Random(3))
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    shown = shown_moves(moves)
    steps = {"middle": shown[len(shown) // 2], "last": shown[-1]}
    step = steps.get(where) or next(n for n in shown if n and REPLAY_STEPS[where](moves[n - 1]))
    for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page = open_page(browser, live_daphne, alice, f"/games/{game.pk}/replay/?step={step}", viewport)
        expect(page.get_by_test_id("step")).to_have_text(str(step))
        screenshot(page, f"fits-replay-{where}-{name}", full_page=False)
        no_sideways_scroll(page)
        if where == "cut":  # the cut for deal as the live board draws it: cards side by side
            cards = page.locator(".replay-table .cut-cards .card")
            assert cards.count() == 2
            assert abs(cards.nth(0).bounding_box()["y"] - cards.nth(1).bounding_box()["y"]) < 1
            for k in range(2):
                in_view(page, f".replay-table .cut-cards .card >> nth={k}")
        if where == "go":  # go and 31 as the live board's pills by the count, not a list
            call = page.locator(".replay-table .count-call").first
            assert call.evaluate("c => getComputedStyle(c).listStyleType") == "none"
            for selector in (".replay-table .pile .cards", ".replay-table [data-testid=count]",
                             ".replay-table .count-call"):
                in_view(page, selector)
        if where in ("discard", "go", "show", "middle", "last"):
            in_view(page, ".replay-table .table__middle")
            in_view(page, ".replay-table .starter .card")
            in_view(page, ".replay-table .crib")
        if where == "show":
            in_view(page, ".replay-table .crib .shown-score")
        if where == "last":
            in_view(page, ".replay-results")
        for selector in ("[data-replay=first]", "[data-replay=prev]", "[data-replay=next]",
                         "[data-replay=last]", "[data-testid=what]", ".replay-rail .board-svg",
                         ".replay-rail .board-scores"):
            in_view(page, selector)
        # Each seat: its score, and its cards while it holds any.
        seats = page.locator(".replay-table .seat")
        assert seats.count() == 2
        for k in range(seats.count()):
            in_view(page, f".replay-table .seat >> nth={k} >> .seat__score")
            if seats.nth(k).locator(".cards li").count():
                in_view(page, f".replay-table .seat >> nth={k} >> .cards")
        if name == "phone":
            in_view(page, ".replay-drawer .board-drawer__toggle")
            expect(page.locator(".replay-drawer .score-log")).to_be_hidden()
            if where == "go":  # the step's calls and the log a tap away, closed again by Escape
                page.locator(".replay-drawer .board-drawer__toggle").click()
                expect(page.locator(".replay-events")).to_contain_text("Go for 1" if any(
                    e["kind"] == "go" for e in moves[step - 1].events) else "31 for 2")
                expect(page.locator(".replay-drawer .score-log")).to_be_visible()
                screenshot(page, f"fits-replay-drawer-{name}", full_page=False)
                page.keyboard.press("Escape")
                expect(page.locator(".replay-drawer .score-log")).to_be_hidden()
        else:
            in_view(page, ".replay-drawer")
            expect(page.locator(".replay-drawer .score-log")).to_be_visible()
        # A step forward changes only what is drawn: the buttons stay where the pointer is.
        if where == "middle":
            before = page.locator("[data-replay=next]").bounding_box()
            page.locator("[data-replay=next]").click()
            expect(page.get_by_test_id("step")).to_have_text(str(shown[shown.index(step) + 1]))
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
