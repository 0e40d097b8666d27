"""The table moves, in Chromium: cards are laid away by dragging them onto the crib (mouse, and
touch through Chromium's touch events, with screenshots of a drag at 1280x720 and 390x844); cards move
by default; a move pushed while a card is still moving is drawn at once and the next key is not held;
under reduced motion, and with the player's "Animations" switch off, nothing animates."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from games.accounts.models import TablePreferences
from tests.e2e.board_watch import (
    LAPTOP,
    PHONE,
    WAIT_MS,
    at_the_lay_away,
    boards,
    laid_away_deal,
    open_game,
    version,
    wait_past,
)
from tests.e2e.helpers import screenshot
from tests.play.factories import (
    load,
    make_user,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


# ---------- dragging to the crib ----------


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
