"""The board holds still under the player's hand: every update is morphed into the board shown.

At 1280x720 and 390x844: a tap fired in the very middle of a pushed update lands, once; between
turns nothing on the table moves except what changed; one board's morph on a CPU four times slower
costs less than a plain swap; a move kept and sent again follows the server's HX-Redirect as htmx does.
"""

from __future__ import annotations

import random
import statistics
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from games.play.models import Game, Move
from tests.correspondence.support import correspondence_game, move_once, passing_move
from tests.e2e.board_watch import FETCH_BOARD, laid_away_deal
from tests.e2e.helpers import screenshot
from tests.live.support import HttpPlayer, session_key
from tests.play.factories import act, as_form, human_game, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

SIZES = [("laptop", {"width": 1280, "height": 720}), ("phone", {"width": 390, "height": 844})]
FRAME_MS = 16


def board_of(browser: Browser, base: str, game: Game, user, viewport: dict, **options) -> Page:
    context = browser.new_context(viewport=viewport, service_workers="block", **options)
    context.add_cookies([{"name": "sessionid", "value": session_key(user), "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    return page


def wait_version(page: Page, version: int) -> None:
    page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) >= v",
                           arg=version)


def cuts(game: Game, seat: int) -> int:
    return Move.objects.filter(game=game, seat=seat, action__type="cut_for_deal").count()


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_a_tap_made_as_a_push_is_swapped_in_lands_once(browser: Browser, live_daphne: str, name: str,
                                                        viewport: dict):
    alice, bob = make_user(f"alice-tap-{name}"), make_user(f"bob-tap-{name}")
    game = human_game(alice, bob)
    page = board_of(browser, live_daphne, game, alice, viewport)
    seen = game.version
    # The tap is fired by the page itself on the push's first swap event, before the morph: the
    # card under the finger is the element the morph keeps, and its answer lands on the new board.
    page.evaluate("""() => {
      window.__tap = null;
      document.addEventListener("htmx:oobBeforeSwap", (e) => {
        if (e.detail.target.id !== "board" || window.__tap) return;
        const card = document.getElementById("cut-19");
        window.__tap = {version: Number(e.detail.target.dataset.version), disabled: card.disabled};
        card.click();
      });
    }""")
    status, _ = HttpPlayer(live_daphne, session_key(bob)).act(game.pk, seen, {"type": "cut_for_deal",
                                                                                "position": "3"})
    assert status == 200
    page.wait_for_function("() => window.__tap !== null")
    assert page.evaluate("() => window.__tap.version") == seen
    assert page.evaluate("() => window.__tap.disabled") is False
    wait_version(page, seen + 2)  # bob's cut, pushed, and alice's, answered
    assert cuts(game, 0) == 1 and cuts(game, 1) == 1
    game.refresh_from_db()
    assert game.version == seen + 2
    expect(page.locator(".board-error")).to_have_count(0)
    screenshot(page, f"morph-tap-during-push-{name}", full_page=False)
    page.context.close()


BOXES = """() => Object.fromEntries([...document.querySelectorAll('#board [id]')].map((el) => {
  const r = el.getBoundingClientRect();
  return [el.id, [r.x, r.y, r.width, r.height].map((n) => Math.round(n * 2) / 2)];
}))"""


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_between_turns_nothing_on_the_table_moves_but_what_changed(browser: Browser, live_daphne: str,
                                                                  name: str, viewport: dict):
    alice, bob = make_user(f"alice-still-{name}"), make_user(f"bob-still-{name}")
    game = laid_away_deal(alice, bob)
    game.refresh_from_db()
    # Motion off: the boxes are where the cards rest, not where a glide has them.
    page = board_of(browser, live_daphne, game, alice, viewport, reduced_motion="reduce")
    page.evaluate("() => { window.__kept = Object.fromEntries("
                  "[...document.querySelectorAll('#board [id]')].map((el) => [el.id, el])); }")
    before = page.evaluate(BOXES)
    bobs = HttpPlayer(live_daphne, session_key(bob))
    status, _ = bobs.act(game.pk, game.version, {"type": "play", "card": "KH"})
    assert status == 200
    wait_version(page, game.version + 1)
    after = page.evaluate(BOXES)
    # What changed: bob's hand (a card fewer), the pile (his card), the log (his line on top, the
    # older ones below it). Everything else holds still, and is the very element it was (the morph
    # kept it).
    changed = {"seat-1", "pile"}
    moved = {k: (before[k], after[k]) for k in before.keys() & after.keys()
             if before[k] != after[k] and k not in changed and not k.startswith(("pile-", "log-line-"))}
    assert not moved, moved
    kept = page.evaluate("() => Object.keys(window.__kept)"
                         ".filter((id) => document.getElementById(id) === window.__kept[id])")
    assert {"seat-0", "play-TD", "play-5D", "crib", "starter-place", "log-line-1"} <= set(kept), kept
    page.context.close()


@pytest.mark.screen  # a measure of the page alone: the SQLite pass takes it
@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_one_board_morphs_for_less_than_a_plain_swap_costs(browser: Browser, live_daphne: str,
                                                           name: str, viewport: dict):
    """On a CPU four times slower, morphing a board costs less than replacing it did (the swap htmx
    made before the morph), measured in the same page and interleaved, so the machine's load weighs on
    both alike. The figure against a frame (16 ms) is printed: docs/performance.md keeps it."""
    alice, bob = make_user(f"alice-cpu-{name}"), make_user(f"bob-cpu-{name}")
    game = laid_away_deal(alice, bob)
    # A live game: both players at the table (bob's board open), as a board pushed between turns is.
    bobs = board_of(browser, live_daphne, game, bob, viewport)
    page = board_of(browser, live_daphne, game, alice, viewport)
    expect(page.locator("#presence")).to_contain_text("bob-cpu")
    # Two boards a turn apart, as the server draws them for alice: one morphed into the other.
    first = page.evaluate(FETCH_BOARD)
    act(game, bob, {"type": "play", "card": "KH"})
    wait_version(page, Game.objects.get(pk=game.pk).version)
    second = page.evaluate(FETCH_BOARD)
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    # Each swap starts from a board the browser has drawn (two frames later), as a player's does.
    times = page.evaluate("""async ([a, b]) => {
      const took = {morph: [], outerHTML: []};
      for (let i = 0; i < 24; i++) {
        const style = (i >> 1) % 2 ? "outerHTML" : "morph";
        await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
        const board = document.getElementById("board");
        const start = performance.now();
        htmx.swap(board, i % 2 ? a : b, {swapStyle: style}, {contextElement: board});
        took[style].push(performance.now() - start);
      }
      return took;
    }""", [first, second])
    assert page.locator("#board").count() == 1 and page.locator("#board").evaluate("b => b.isConnected")
    # The first of each warms the parser and the swap's code.
    morph, plain = statistics.median(times["morph"][1:]), statistics.median(times["outerHTML"][1:])
    print(f"one board, CPU x4, {name}: morph median {morph:.1f} ms, {morph / FRAME_MS:.0%} of a "
          f"{FRAME_MS} ms frame ({'within' if morph < FRAME_MS else 'over'} it); plain swap {plain:.1f} ms; "
          f"morph/plain x{morph / plain:.2f}")
    assert morph < plain, times  # measured at about half of it
    page.context.close()
    bobs.context.close()


def test_a_kept_move_sent_again_follows_the_server_s_redirect(browser: Browser, live_daphne: str):
    """At your own pace, a move made opens the next game waiting (HX-Redirect). A move kept by a
    page that closed is sent by the next page of its board; its answer's redirect is followed, as
    htmx follows one, and the move, answered, is forgotten."""
    alice, bob = make_user("alice-follow"), make_user("bob-follow")
    first = correspondence_game(alice, bob)
    users, rng = {0: alice, 1: bob}, random.Random(1)
    mine = passing_move(first, users, rng)  # alice's, passing the turn to bob
    carol = make_user("carol-follow")
    other = correspondence_game(alice, carol)
    move_once(other, {0: alice, 1: carol}, seat=1)  # carol cuts: it waits on alice
    first.refresh_from_db()
    seen = first.version
    page = board_of(browser, live_daphne, first, alice, {"width": 1280, "height": 720})
    body = urlencode({"version": seen, **as_form(mine)}, doseq=True)
    page.evaluate("""([key, path, body]) => localStorage.setItem("cribbage:unsent-moves",
        JSON.stringify({[key]: {path: path, body: body, button: null, saved: Date.now()}}))""",
                  [f"{alice.pk} /games/{first.pk}/act/", f"/games/{first.pk}/act/", body])
    page.reload()
    page.wait_for_url(f"{live_daphne}/games/{other.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    first.refresh_from_db()
    assert first.version == seen + 1
    assert page.evaluate("() => localStorage.getItem('cribbage:unsent-moves')") is None
    page.context.close()
