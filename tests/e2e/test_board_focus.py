"""Keyboard focus across board redraws: each move's answer, the computer's steps and a push from
the other player replace the whole board. Focus that was in the board stays on the same control
(or moves to the next thing to do); focus elsewhere on the page is left alone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import ARTIFACTS
from tests.live.support import HttpPlayer, session_key, two_players
from tests.play.factories import computer_game, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

WAIT_MS = 15000
# What the keyboard is on, and whether it is inside the board now on the page.
FOCUS = """() => { const a = document.activeElement;
  return {inBoard: !!(a && a.closest('#board') && a.isConnected), tag: a ? a.tagName : '',
          value: a ? a.getAttribute('value') : null, text: a ? a.textContent.trim() : '',
          playable: !!(a && a.matches('.card-button.playable:not(:disabled)')),
          pick: !!(a && a.matches('.card-pick__box')),
          cut: !!(a && a.matches('.fan__card:not(:disabled)'))}; }"""
# Something to press: a legal card, a checkbox, or the primary button of the seat or the result.
ACTIONABLE = """() => { const a = document.activeElement;
  return !!(a && a.isConnected && a.closest('#board') && a.matches('.card-button.playable:not(:disabled),'
    + ' .card-pick__box, .fan__card:not(:disabled), .button--primary')); }"""


def open_board(page: Page, live_daphne: str, user, game) -> None:
    page.context.add_cookies([{"name": "sessionid", "value": session_key(user), "url": live_daphne}])
    page.goto(f"{live_daphne}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=WAIT_MS)


def focus(page: Page) -> dict:
    return page.evaluate(FOCUS)


def version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def press_enter(page: Page) -> dict:
    """Enter on the focused control; what has focus once a newer board offers something to press,
    htmx has made it live (until it settles, Enter would post the form without htmx) and the
    computer has no move left to make (keys pressed as it redraws the board go with the old one)."""
    seen = version(page)
    page.keyboard.press("Enter")
    settled = "!document.querySelector('#board .computer-step, #board.htmx-added')"
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {seen}"
                           f" && {settled} && ({ACTIONABLE})()", timeout=WAIT_MS)
    return focus(page)


def test_the_keyboard_stays_in_the_hand_through_a_deal(live_daphne: str, page: Page):
    alice = make_user("alice")
    game = computer_game(alice)
    open_board(page, live_daphne, alice, game)
    page.locator(".cut-deck button.fan__card:not([disabled])").nth(10).focus()
    for _ in range(20):  # equal cards are cut again: focus comes back to the deck
        now = press_enter(page)
        if not now["cut"]:
            break
    assert now["pick"], now  # the lay-away: focus on the first card of the new hand
    first = page.locator("#board .card-pick__box").first.get_attribute("value")
    assert now["value"] == first
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    for _ in range(8):  # the button sits by the crib, above the hand
        page.keyboard.press("Shift+Tab")
        if focus(page)["text"] == "Lay away to the crib":
            break
    now = press_enter(page)

    # The play: each answer, and each of the computer's plays, leaves focus on a card to play (or Go).
    played = 0
    for _ in range(30):
        assert now["inBoard"], now
        if not (now["playable"] or now["text"] == "Go"):
            break
        if now["playable"] and played == 0:
            ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                                 " return [s.outlineStyle, s.outlineWidth, s.outlineColor]; }")
            assert ring == ["solid", "4px", "rgb(11, 15, 20)"]  # not the yellow "playable" edge
            page.locator("#board .seat--me").screenshot(path=str(ARTIFACTS / "board-focus-ring.png"))
        played += 1
        now = press_enter(page)
    assert played >= 4, now
    assert focus(page)["text"] in ("Next hand", "Next game of the match", "Rematch")


def test_a_push_keeps_the_players_focus_on_the_same_card(live_daphne: str, page: Page):
    game, alice, bob = two_players()
    open_board(page, live_daphne, alice, game)
    card = page.locator(".cut-deck button.fan__card:not([disabled])").nth(20)
    value = card.get_attribute("value")
    card.focus()
    status, _ = HttpPlayer(live_daphne, session_key(bob)).act(
        game.pk, game.version, {"type": "cut_for_deal", "position": 3}
    )
    assert status == 200
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {game.version}",
                           timeout=WAIT_MS)
    now = focus(page)
    assert now["inBoard"] and now["cut"] and now["value"] == value, now


def test_focus_outside_the_board_is_left_alone(live_daphne: str, page: Page):
    alice = make_user("alice")
    game = computer_game(alice)
    open_board(page, live_daphne, alice, game)
    page.locator(".cut-deck button.fan__card:not([disabled])").first.focus()
    lobby = page.locator(".site-header a", has_text="Lobby").first
    lobby.focus()  # the player moved on from the board
    page.evaluate("() => { document.querySelector('#board').dataset.old = '1';"
                  " htmx.ajax('GET', location.pathname, {target: '#board', swap: 'outerHTML'}); }")
    # The board's hooks (focus among them) run in the task that swaps it in, before this sees it.
    page.wait_for_function("() => !document.querySelector('#board').dataset.old", timeout=WAIT_MS)
    assert page.evaluate("() => document.activeElement.textContent.trim()") == "Lobby"
