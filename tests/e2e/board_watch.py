"""A board page opened in its own browser context with motion on, watched from before its first
script: what moved on each new board, the sounds it made, and a tab that can be told it is hidden.
Games stacked for the motion, key and turn-cue tests."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.play.models import Game
from tests.live.support import session_key
from tests.play.factories import GO_HANDS, act, computer_game, human_game, make_user, stack

LAPTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 15000
# The board of the page's game as the server draws it for the page's player, asked for as htmx does.
FETCH_BOARD = "() => fetch(location.pathname, {headers: {'HX-Request': 'true'}}).then(r => r.text())"

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


def boards(page: Page) -> list[dict]:
    return page.evaluate("() => window.__boards")


def laid_away_deal(alice, bob) -> Game:
    """alice deals; both have laid away; bob (the pone) leads: KH 9C AH 2C against TD 5D 6D 7D."""
    game = stack(human_game(alice, bob), dealer=0, hands=GO_HANDS, starter="5C")
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    return game


def at_the_lay_away(browser: Browser, live_daphne: str, name: str, viewport: dict, **options) -> Page:
    alice = make_user(name)
    game = stack(computer_game(alice), dealer=0, hands=GO_HANDS, starter="5C")
    page = open_game(browser, live_daphne, alice, game, viewport, **options)
    expect(page.locator(".discard-form input[name=cards]")).to_have_count(6, timeout=WAIT_MS)
    return page
