"""The board against the computer, whose lay-away arrives while the player is still choosing.

The computer's step is held back (a Playwright route) until the test lets it through, so each
race happens in a fixed order: ticks made before the computer's lay-away, and a lay-away whose
answer lands after the computer's has replaced the board it was sent from.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from playwright.sync_api import ConsoleMessage, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.helpers import phase_and_version, screenshot, until_handled
from tests.live.support import load, session_key
from tests.play.factories import computer_game, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

WAIT_MS = 15000


@pytest.fixture
def htmx_errors(page: Page) -> list[str]:
    errors: list[str] = []

    def collect(message: ConsoleMessage) -> None:
        if message.type == "error" and "htmx" in message.text:
            errors.append(message.text)

    page.on("console", collect)
    return errors


def open_a_game_at_the_lay_away(live_daphne: str, page: Page) -> tuple[object, Callable[[], None]]:
    """A game against the computer, cut for deal through the page, up to the lay-away; the
    computer's lay-away is held back until the returned function lets it go.

    Every request for it is held, not only the first: a board that reaches the page twice at the
    same version (the socket's, then the answer it overtook) loads its computer step twice."""
    alice = make_user("alice")
    game = computer_game(alice)
    held: list[Route] = []
    released = False

    def hold_the_lay_away(route: Route) -> None:
        state = load(game)
        if not released and state.phase == "discard" and not state.discards[1]:
            held.append(route)
        else:
            route.continue_()

    def release() -> None:
        nonlocal released
        released = True
        while held:
            held.pop().continue_()

    page.route("**/games/*/computer/", hold_the_lay_away)
    page.context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": live_daphne}])
    page.goto(f"{live_daphne}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=WAIT_MS)
    board = page.locator("#board")
    for attempt in range(40):  # equal cards cut again
        phase, before = phase_and_version(board)
        if "phase-discard" in phase:
            break
        # The player's cut, or the computer's (its step goes through): either moves the version. A
        # click that finds the deck redrawn under it has been overtaken by one that already did.
        deck = page.locator(".cut-deck button.fan__card:not([disabled])")
        if deck.count():
            with contextlib.suppress(PlaywrightError):
                deck.nth(10 + 3 * (attempt % 8)).click(position={"x": 6, "y": 20}, force=True, timeout=3000)
        expect(board).not_to_have_attribute("data-version", before, timeout=WAIT_MS)
    expect(page.locator("#board .discard-form input[name=cards]")).to_have_count(6, timeout=WAIT_MS)
    # The discard board asks for the computer's lay-away as it loads; the route holds it.
    until_handled(page, lambda: held, "the computer's lay-away asked for")
    expect(page.locator(".seat--opponent .cards li")).to_have_count(6)
    return game, release


def tick(page: Page, *positions: int) -> list[str]:
    boxes = page.locator("#board .discard-form input[name=cards]")
    for i in positions:
        boxes.nth(i).check()
    return [boxes.nth(i).get_attribute("value") for i in positions]


def ticked(page: Page) -> list[str]:
    return page.locator("#board .discard-form input[name=cards]:checked").evaluate_all(
        "boxes => boxes.map(b => b.value)"
    )


def test_ticks_survive_the_computer_s_lay_away(live_daphne: str, page: Page, htmx_errors: list[str]):
    game, release = open_a_game_at_the_lay_away(live_daphne, page)
    picks = tick(page, 0, 3)
    before = page.locator("#board").get_attribute("data-version")

    release()  # the computer lays away: the board is drawn again under the ticks
    expect(page.locator(".seat--opponent .cards li")).to_have_count(4, timeout=WAIT_MS)
    expect(page.locator("#board")).not_to_have_attribute("data-version", before or "")
    assert ticked(page) == picks

    page.get_by_role("button", name="Lay away to the crib").click()
    expect(page.locator(".crib")).to_contain_text("crib (4)", timeout=WAIT_MS)
    expect(page.locator(".board-error")).to_have_count(0)
    assert {str(c) for c in load(game).discards[0]} == set(picks)
    assert htmx_errors == []


def test_a_lay_away_answered_after_the_computer_s_is_not_lost(live_daphne: str, page: Page,
                                                             htmx_errors: list[str]):
    """The lay-away is sent, then the computer's lands first and replaces the board the lay-away
    came from: the lay-away's answer still reaches the page (and its out-of-band parts too)."""
    game, release = open_a_game_at_the_lay_away(live_daphne, page)
    tick(page, 1, 2)
    answers: list[Route] = []
    page.route("**/games/*/act/", lambda route: answers.append(route))
    page.get_by_role("button", name="Lay away to the crib").click()
    until_handled(page, lambda: answers, "the lay-away sent")

    release()
    expect(page.locator(".seat--opponent .cards li")).to_have_count(4, timeout=WAIT_MS)
    answers.pop().continue_()  # the server takes it on top of the computer's lay-away

    # At once, not at the socket's next heartbeat (its board for this move is spared this page).
    expect(page.locator(".crib")).to_contain_text("crib (4)", timeout=4000)
    expect(page.locator(".board-error")).to_have_count(0)
    game.refresh_from_db()
    assert int(page.locator("#board").get_attribute("data-version")) <= game.version
    assert htmx_errors == []


def test_laying_away_takes_exactly_two_cards(live_daphne: str, page: Page, htmx_errors: list[str]):
    """The button waits for the second card, and a third card picked gives up the first one: the
    player never meets "That is not a move"."""
    open_a_game_at_the_lay_away(live_daphne, page)
    button = page.get_by_role("button", name="Lay away to the crib")
    expect(button).to_be_disabled()
    expect(page.locator(".discard-count")).to_have_text("Pick 2 cards.")
    first, second = tick(page, 1, 2)
    expect(button).to_be_enabled()
    (third,) = tick(page, 4)
    assert ticked(page) == [second, third]  # the first pick was given up for the third
    expect(button).to_be_enabled()
    page.locator("#board .discard-form input[name=cards]").nth(2).uncheck()
    expect(button).to_be_disabled()
    expect(page.locator(".discard-count")).to_have_text("Pick one more card.")
    screenshot(page, "lay-away-one-more")
