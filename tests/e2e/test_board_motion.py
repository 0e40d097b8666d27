"""The table moves, every action has a key, and the turn is cued, in Chromium.

A whole game against the computer is played with the keyboard alone; cards are laid away by
dragging them onto the crib (mouse, and touch through Chromium's touch events); a move pushed
while a card is still moving is drawn at once; under reduced motion, and with the player's
"Animations" switch off, nothing animates; a hidden tab says "Your turn"; sounds are made when
turned on. Screenshots at 1280x720 and 390x844: the keys' list, a drag, the waiting line."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.accounts.models import TablePreferences
from games.engine.rules import HouseRules
from games.play.models import Game
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.live.support import session_key
from tests.play.factories import (
    GO_HANDS,
    GO_PLAY,
    act,
    computer_game,
    human_game,
    load,
    make_user,
    play_out,
    stack,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

LAPTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 15000
MAX_KEYS = 600

# Before any script of the page: what ran on each new board (animations still running a moment
# later), the sounds the page made, and a tab that can be told it is hidden. The board's own hooks
# (board.js) say when a board is about to be morphed and when it is in place. Only what moves on the
# board counts (not the calls' fade): a button's hover elsewhere on the page, or the transition of
# the switch just pressed, is not the table moving, and counting them failed a test by chance.
WATCH = """
window.__boards = [];
window.__sounds = [];
window.__beforeSwap = [];
window.__hidden = false;
Object.defineProperty(document, "hidden", {configurable: true, get: () => window.__hidden});
Object.defineProperty(document, "visibilityState", {configurable: true,
  get: () => window.__hidden ? "hidden" : "visible"});
document.addEventListener("table:sound", (e) => window.__sounds.push(e.detail.kind));
const moving = () => document.getAnimations().filter((a) => a.playState !== "finished"
  && a.effect && a.effect.target && a.effect.target.closest("#board"));
document.addEventListener("board:beforeUpdate", () => window.__beforeSwap.push(
  moving().filter((a) => a.playState === "running").length));
document.addEventListener("board:updated", (e) => {
  if (e.detail.previous === null) return;  // the page's first board: nothing was swapped
  const version = Number(e.detail.board.dataset.version);
  const running = window.__beforeSwap[window.__beforeSwap.length - 1] || 0;
  // In the first frame drawn and a moment later (the pegs' transitions start once it is in place).
  const longest = (list) => Math.max(0, ...list.map((a) => a.effect.getComputedTiming().endTime));
  requestAnimationFrame(() => {
    const now = moving();
    setTimeout(() => {
      const later = moving();
      window.__boards.push({version, running, now: now.length, later: later.length,
                            longest: Math.max(longest(now), longest(later))});
    }, 40);
  });
});
"""


def open_game(browser: Browser, live_daphne: str, user, game: Game, viewport: dict = LAPTOP,
              **options) -> Page:
    context: BrowserContext = browser.new_context(viewport=viewport, **options)
    context.add_cookies([{"name": "sessionid", "value": session_key(user), "url": live_daphne}])
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(f"{live_daphne}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open", timeout=WAIT_MS)
    return page


def version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def wait_past(page: Page, seen: int, timeout: int = WAIT_MS) -> bool:
    """The board shown is newer than version ``seen`` (a timeout fails the test)."""
    page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) > v",
                           arg=seen, timeout=timeout)
    return True


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


def boards(page: Page) -> list[dict]:
    return page.evaluate("() => window.__boards")


def laid_away_deal(alice, bob) -> Game:
    """alice deals; both have laid away; bob (the pone) leads: KH 9C AH 2C against TD 5D 6D 7D."""
    game = stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter="5C")
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    return game


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


# ---------- dragging to the crib ----------


def at_the_lay_away(browser: Browser, live_daphne: str, name: str, viewport: dict, **options) -> Page:
    alice = make_user(name)
    game = stack(computer_game(alice), dealer=0, hands=GO_HANDS, starter="5C")
    page = open_game(browser, live_daphne, alice, game, viewport, **options)
    expect(page.locator(".discard-form input[name=cards]")).to_have_count(6, timeout=WAIT_MS)
    return page


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize(("name", "viewport"), [("laptop", LAPTOP), ("phone", PHONE)])
def test_cards_are_laid_away_by_dragging_them_onto_the_crib(browser: Browser, live_daphne: str,
                                                            name: str, viewport: dict):
    page = at_the_lay_away(browser, live_daphne, f"drag{name}", viewport)
    picked = []
    for n in (1, 4):
        card = f".discard-form .card-pick:nth-child({n})"
        picked.append(page.locator(card).locator("input").get_attribute("value"))
        x, y = centre(page, card)
        cx, cy = centre(page, "#board .crib")
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(cx, cy, steps=8)
        expect(page.locator("#board .crib")).to_have_class("crib crib--drop")
        if n == 4:
            screenshot(page, f"motion-drag-{name}", full_page=False)
        page.mouse.up()
    assert page.locator(".card-pick__box:checked").evaluate_all("bs => bs.map(b => b.value)") == picked
    # A tap on a card still picks or gives it back; the drop did not count as one.
    button = page.get_by_role("button", name="Lay away to the crib")
    expect(button).to_be_enabled()
    crib = page.locator("#board .crib").bounding_box()
    box = button.bounding_box()
    assert crib["y"] <= box["y"] <= crib["y"] + crib["height"], "the button is by the crib"
    seen = version(page)
    button.click()
    wait_past(page, seen)
    expect(page.locator("#board .crib")).to_contain_text("(4)", timeout=WAIT_MS)
    page.context.close()


def test_a_card_is_laid_away_by_touch(browser: Browser, live_daphne: str):
    page = at_the_lay_away(browser, live_daphne, "touch", PHONE, has_touch=True, is_mobile=True)
    page.evaluate("() => { window.__pointers = [];"
                  " for (const n of ['pointerdown', 'pointermove', 'pointerup']) document.addEventListener("
                  "  n, e => window.__pointers.push(n + ':' + e.pointerType), true); }")
    cdp = page.context.new_cdp_session(page)
    card = ".discard-form .card-pick:nth-child(2)"
    value = page.locator(card).locator("input").get_attribute("value")
    x, y = centre(page, card)
    cx, cy = centre(page, "#board .crib")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x + (cx - x) * k / 8, "y": y + (cy - y) * k / 8}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    kinds = {e.split(":")[1] for e in page.evaluate("() => window.__pointers") if not e.startswith("click")}
    assert kinds == {"touch"}
    expect(page.locator(".card-pick__box:checked")).to_have_count(1)
    assert page.locator(".card-pick__box:checked").get_attribute("value") == value
    page.context.close()


# ---------- motion ----------


def test_a_move_pushed_mid_motion_is_drawn_and_the_next_key_is_not_held(browser: Browser, live_daphne: str):
    alice, bob = make_user("alicem"), make_user("bobm")
    game = laid_away_deal(alice, bob)
    page = open_game(browser, live_daphne, alice, game)
    theirs = open_game(browser, live_daphne, bob, game)
    # Every motion ten times slower, so the push surely lands while alice's card still moves.
    page.context.new_cdp_session(page).send("Animation.setPlaybackRate", {"playbackRate": 0.1})

    seen = version(page)
    theirs.locator("button[value=KH]").click()
    assert wait_past(page, seen)
    expect(page.locator(".pile [data-card=KH]")).to_be_visible()
    seen = version(page)
    page.locator("button[value=TD]").click()  # alice's own card glides to the pile, slowly
    assert wait_past(page, seen)
    page.wait_for_function("() => document.getAnimations().some(a => a.playState === 'running')")

    seen = version(page)
    theirs.locator("button[value='9C']").click()  # pushed to alice while TD still moves
    assert wait_past(page, seen)
    expect(page.locator(".pile [data-card='9C']")).to_be_visible()
    page.wait_for_function("(v) => window.__boards.some(b => b.version > v)", arg=seen)
    pushed = [b for b in boards(page) if b["version"] > seen][0]
    assert pushed["running"] > 0, "the push did not land mid-motion"
    assert load(game).count == 29
    # Still moving, and the next key is taken at once: alice can only say go.
    assert page.evaluate("() => document.getAnimations().some(a => a.playState === 'running')")
    seen = version(page)
    page.keyboard.press("g")
    assert wait_past(page, seen, timeout=3000)
    assert load(game).gone[0]
    page.context.close()
    theirs.context.close()


def moves_seen_by(page: Page, theirs: Page, cards: list[str]) -> list[dict]:
    """bob plays ``cards`` one by one; what ran on alice's boards that came with them."""
    first = version(page)
    for card in cards:
        seen = version(page)
        theirs.locator(f"button[value='{card}']").click()
        assert wait_past(page, seen)
    page.wait_for_function("(v) => window.__boards.some(b => b.version > v)", arg=first)
    return [b for b in boards(page) if b["version"] > first]


def test_cards_move_by_default(browser: Browser, live_daphne: str):
    """The check below has something to find: with motion on, a card laid moves."""
    alice, bob = make_user("alicen"), make_user("bobn")
    game = laid_away_deal(alice, bob)
    page = open_game(browser, live_daphne, alice, game)
    theirs = open_game(browser, live_daphne, bob, game)
    seen = moves_seen_by(page, theirs, ["KH"])
    assert any(b["now"] for b in seen), seen
    peg = page.locator(".board-svg .peg").first
    assert peg.evaluate("p => getComputedStyle(p).transitionDuration") == "0.3s"
    page.context.close()
    theirs.context.close()


@pytest.mark.parametrize("why", ["reduced-motion", "switch"])
def test_nothing_moves_under_reduced_motion_or_with_the_switch_off(browser: Browser, live_daphne: str,
                                                                  why: str):
    alice, bob = make_user(f"alice{why}"), make_user(f"bob{why}")
    game = laid_away_deal(alice, bob)
    options = {"reduced_motion": "reduce"} if why == "reduced-motion" else {}
    page = open_game(browser, live_daphne, alice, game, **options)
    theirs = open_game(browser, live_daphne, bob, game)
    if why == "switch":
        switch = page.get_by_role("switch", name="Animations")
        expect(switch).to_be_checked()
        with page.expect_response(lambda r: r.url.endswith("/accounts/table/")) as answer:
            switch.uncheck()
        assert answer.value.status == 204
        assert TablePreferences.objects.get(user=alice).motion is False
    seen = moves_seen_by(page, theirs, ["KH"])
    # alice's own card, and the pegs of bob's pair too.
    page.locator("button[value=TD]").click()
    page.wait_for_function("(v) => window.__boards.filter(b => b.version > v).length >= 2",
                           arg=seen[0]["version"] - 1)
    assert all(b["running"] == b["now"] == b["later"] == 0 for b in boards(page)), boards(page)
    assert page.evaluate("() => document.getAnimations()"
                         ".filter(a => a.effect.target.closest('#board, .announce')).length") == 0
    for selector in (".board-svg .peg", ".card-button"):
        style = page.locator(selector).first.evaluate(
            "el => [getComputedStyle(el).transitionProperty, getComputedStyle(el).transitionDuration]")
        assert style[0] == "none" or style[1] in ("0s", "1e-05s"), (selector, style)
    if why == "switch":  # kept for the account: the next visit starts with it off
        page.reload()
        expect(page.get_by_role("switch", name="Animations")).not_to_be_checked()
        expect(page.locator(".board-live")).to_have_attribute("data-motion", "off")
    page.context.close()
    theirs.context.close()


# ---------- turn cues ----------


def test_a_hidden_tab_says_your_turn_and_sounds_mark_the_moves(browser: Browser, live_daphne: str):
    alice, bob = make_user("alicet"), make_user("bobt")
    game = laid_away_deal(alice, bob)
    page = open_game(browser, live_daphne, alice, game)
    theirs = open_game(browser, live_daphne, bob, game)
    sound = page.get_by_role("switch", name="Sound")
    expect(sound).not_to_be_checked()  # off until the player turns it on
    with page.expect_response(lambda r: r.url.endswith("/accounts/table/")):
        sound.check()
    assert TablePreferences.objects.get(user=alice).sound is True

    page.evaluate("() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); }")
    seen = version(page)
    theirs.locator("button[value=KH]").click()
    assert wait_past(page, seen)
    page.wait_for_function("() => document.title.startsWith('Your turn · ')")
    assert page.evaluate("() => window.__sounds") == ["card", "turn"]
    page.evaluate("() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }")
    page.wait_for_function("() => document.title.startsWith('Your move · ')")

    page.evaluate("() => { window.__sounds = []; }")
    seen = version(page)
    five = page.locator(".play-form .hand button[name=card]").evaluate_all(
        "bs => bs.findIndex(b => b.value === '5D')")
    page.keyboard.press(str(five + 1))  # fifteen two: a card, then a peg
    assert wait_past(page, seen)
    page.wait_for_function("() => window.__sounds.includes('peg')")
    seen = version(page)
    theirs.locator("button[value='9C']").click()
    assert wait_past(page, seen)
    assert page.evaluate("() => window.__sounds") == ["card", "peg", "card", "turn"]
    page.context.close()
    theirs.context.close()


# ---------- whom the board waits for ----------


@pytest.mark.parametrize(("name", "viewport"), [("laptop", LAPTOP), ("phone", PHONE)])
def test_after_next_hand_each_board_says_whom_it_waits_for(browser: Browser, live_daphne: str,
                                                           name: str, viewport: dict):
    alice, bob = make_user(f"alicew{name}"), make_user(f"bobw{name}")
    game = human_game(alice, bob)
    play_out(game, {0: alice, 1: bob}, random.Random(4),
             stop=lambda s: s.phase == "show" and s.turn is None and not any(s.acks))
    page = open_game(browser, live_daphne, alice, game, viewport)
    theirs = open_game(browser, live_daphne, bob, game, viewport)
    seen = version(theirs)
    page.keyboard.press("n")
    expect(page.locator(".waiting-line")).to_have_text(f"Waiting for bobw{name}…")
    assert wait_past(theirs, seen)
    expect(theirs.locator(".waiting-line")).to_have_text(f"alicew{name} is ready.")
    page.locator(".waiting-line").scroll_into_view_if_needed()
    screenshot(page, f"motion-waiting-{name}", full_page=False)
    theirs.locator(".waiting-line").scroll_into_view_if_needed()
    screenshot(theirs, f"motion-ready-{name}", full_page=False)
    assert serious_axe_violations(page) == []
    page.context.close()
    theirs.context.close()


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
