"""Every action at the table has a key, in Chromium: a whole game against the computer played with
the keyboard alone (the list of keys, as a dialog, at 1280x720 and 390x844), keys typed into a field
left to it, a move made the instant a board is drawn, and the show counted, challenged and accepted by
keys."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games.engine.rules import HouseRules
from games.play.models import Game
from tests.e2e.board_watch import (
    LAPTOP,
    PHONE,
    WAIT_MS,
    at_the_lay_away,
    boards,
    open_game,
    version,
    wait_past,
)
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.play.factories import GO_HANDS, GO_PLAY, act, computer_game, human_game, load, make_user, stack

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

MAX_KEYS = 600

# The key the board asks for next, "done" at the game's end, null while the computer is to move
# or nothing is offered yet.
NEXT_KEY = """() => {
  const board = document.querySelector('#board');
  const q = (s) => board.querySelector(s);
  if (document.querySelector('section.result')) return 'done';
  if (q('.computer-step')) return null;
  const phase = board.className;
  if (phase.includes('phase-cut') && q('.fan button:not([disabled])')) return 'c';
  const hand = board.querySelectorAll('.discard-form input[name=cards]');
  if (phase.includes('phase-discard') && hand.length === 6) return 'l';
  if (phase.includes('phase-starter') && q('.cut-starter-form button')) return 'c';
  if (phase.includes('phase-play') && q('button[data-shortcut=g]')) return 'g';
  if (phase.includes('phase-play') && q('.play-form button.playable')) {
    const cards = [...board.querySelectorAll('.play-form .hand button[name=card]')];
    return String(cards.findIndex((b) => !b.disabled) + 1);
  }
  if (q('button[data-shortcut=n]:not([disabled])')) return 'n';
  return null;
}"""


# ---------- the keyboard alone ----------


def test_a_whole_game_against_the_computer_with_the_keyboard_alone(browser: Browser, live_daphne: str):
    alice = make_user("keys")
    game = computer_game(alice, rules=HouseRules(target=61, pone_cuts=True))
    page = open_game(browser, live_daphne, alice, game)

    # The list of keys: opened by ?, read as a dialog, closed by Escape.
    page.keyboard.press("?")
    keys = page.get_by_role("dialog", name="Keys at the table")
    expect(keys).to_be_visible()
    expect(keys).to_contain_text("Lay the picked cards away to the crib")
    screenshot(page, "motion-keys-laptop", full_page=False)
    assert serious_axe_violations(page) == []
    page.keyboard.press("1")  # the list is in front: the board waits
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()

    used: set[str] = set()
    for _ in range(MAX_KEYS):
        key = page.wait_for_function(NEXT_KEY, timeout=WAIT_MS).json_value()
        if key == "done":
            break
        seen = version(page)
        if key == "l":
            if not page.locator(".card-pick__box:checked").count():  # not ticked before a redraw
                page.keyboard.press("1")
                page.keyboard.press("2")
            expect(page.locator(".card-pick__box:checked")).to_have_count(2)
        page.keyboard.press(key)
        used.add(key)
        if key == "l":  # the computer's own lay-away may be drawn first: wait for ours
            expect(page.locator(".discard-form")).to_have_count(0, timeout=WAIT_MS)
        else:
            wait_past(page, seen)
    else:
        pytest.fail("the game did not end")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {"c", "l", "1", "n"} <= used, used
    # Cards dealt, played, laid away and turned, pegs moved: each motion within 300 ms.
    drawn = boards(page)
    # Boards that moved as they were drawn (in their first frame or a moment later). How many of a
    # game's boards are caught moving depends on the machine's timing (a glide can end before its
    # first frame is read), so this asks that motion happened; which motions, the tests below.
    assert sum(1 for b in drawn if b["now"] or b["later"]) >= 2
    assert max(b["longest"] for b in drawn) <= 300
    expect(page.locator("section.result")).to_contain_text("Final score")
    page.context.close()


def test_the_keys_list_on_a_phone(browser: Browser, live_daphne: str):
    alice = make_user("keysphone")
    game = computer_game(alice)
    page = open_game(browser, live_daphne, alice, game, PHONE)
    expect(page.get_by_role("button", name="Keys")).to_be_hidden()  # a phone keeps its one line
    page.keyboard.press("?")
    expect(page.get_by_role("dialog", name="Keys at the table")).to_be_visible()
    screenshot(page, "motion-keys-phone", full_page=False)
    page.get_by_role("button", name="Close").click()
    expect(page.get_by_role("dialog")).to_be_hidden()
    page.context.close()


def test_keys_typed_into_a_field_are_the_player_s_own(browser: Browser, live_daphne: str):
    page = at_the_lay_away(browser, live_daphne, "typing", LAPTOP)
    # Any text field on the page (a chat box, a form of the page around the board).
    page.evaluate("() => { const f = document.createElement('input'); f.id = 'words';"
                  " f.setAttribute('aria-label', 'Words');"
                  " document.querySelector('.board-status').append(f); }")
    page.locator("#words").type("12l?")
    expect(page.locator("#words")).to_have_value("12l?")
    expect(page.locator(".card-pick__box:checked")).to_have_count(0)
    expect(page.get_by_role("dialog")).to_be_hidden()
    page.locator("#words").blur()
    page.keyboard.press("2")  # out of the field, the same key picks the second card
    expect(page.locator(".card-pick__box:checked")).to_have_count(1)
    page.context.close()


def test_a_move_made_the_moment_a_board_is_drawn_goes_through_htmx(browser: Browser, live_daphne: str):
    """A key or a tap in the instant after a board is swapped in is a move like any other, not a
    form the browser submits itself (a page load)."""
    page = at_the_lay_away(browser, live_daphne, "instant", LAPTOP)
    seen = version(page)
    page.evaluate("""() => {
      window.__samePage = true;
      document.addEventListener("htmx:afterSwap", () => setTimeout(() => {
        for (const box of document.querySelectorAll("#board .discard-form input[name=cards]")) {
          if (document.querySelectorAll("#board .card-pick__box:checked").length < 2) box.click();
        }
        document.querySelector('#board [data-shortcut="l"]').click();
      }), {once: true});
      htmx.ajax("GET", window.location.pathname, {target: "#board", swap: "outerHTML"});
    }""")
    expect(page.locator(".discard-form")).to_have_count(0, timeout=WAIT_MS)
    assert version(page) > seen
    assert page.evaluate("() => window.__samePage === true")
    page.context.close()


# ---------- the show by keys ----------


def test_counting_muggins_and_accepting_by_keys(browser: Browser, live_daphne: str):
    alice, bob = make_user("alicek"), make_user("bobk")
    game = stack(human_game(alice, bob, rules=HouseRules(manual_counting=True, muggins=True)),
                 dealer=0, hands=GO_HANDS, starter="5C")
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    users = {0: alice, 1: bob}
    for seat, action in GO_PLAY:
        act(game, users[seat], action)
    assert load(game).phase == "show"
    mine = open_game(browser, live_daphne, alice, game)
    theirs = open_game(browser, live_daphne, bob, game)

    # bob counts his hand short: K takes him to the field, the digits are typed there, Enter counts.
    theirs.locator("body").focus()
    theirs.keyboard.press("k")
    expect(theirs.locator("#count-points")).to_be_focused()
    theirs.keyboard.type("2")
    seen = version(mine)
    theirs.keyboard.press("Enter")
    assert wait_past(mine, seen)
    expect(mine.get_by_role("button", name="Muggins!")).to_be_visible()
    seen = version(mine)
    mine.keyboard.press("m")  # alice takes what he missed
    assert wait_past(mine, seen)
    assert load(game).show[0].muggins == 2

    # alice counts hers right, and bob accepts with A.
    mine.keyboard.press("k")
    expect(mine.locator("#count-points")).to_be_focused()
    mine.keyboard.type("16")
    seen = version(theirs)
    mine.keyboard.press("Enter")
    assert wait_past(theirs, seen)
    expect(theirs.get_by_role("button", name="Accept the count")).to_be_visible()
    seen = version(theirs)
    theirs.keyboard.press("a")
    assert wait_past(theirs, seen)
    assert load(game).show[1].status == "done"
    mine.context.close()
    theirs.context.close()
