"""In Chromium: a finished game's record checks every deal in the browser, and the replay steps with
buttons and arrow keys."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine.rules import HouseRules
from games.history.replay_board import shown_moves
from games.play.models import Move, Round
from tests.e2e.helpers import log_in, screenshot, serious_axe_violations, until_handled
from tests.history.helpers import finish_between, finish_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
EASY = {"kind": "computer", "level": "easy"}
DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
A_STEP = re.compile(r"/replay/\?step=")


def hold_the_next_step(page: Page, press):
    """Press, and keep the step it asks for on its way until the test lets it go (the returned
    route); later steps go through."""
    held = []
    page.route(A_STEP, lambda route: route.continue_() if held else held.append(route))
    press()
    until_handled(page, lambda: held, "the step asked for")
    return held[0]


def test_record_verifies_deals_in_the_browser_and_the_replay_steps(live_daphne: str, page: Page, alice, bob):
    page.set_default_timeout(15000)
    game = finish_between(alice, bob, seed=61, rules=HouseRules(target=61))
    deals = Round.objects.filter(game=game).count()
    shown = shown_moves(list(Move.objects.filter(game=game).order_by("seq")))  # the moves a step shows
    total = shown[-1]  # the last move
    log_in(page, live_daphne, alice)

    # The record: one tick per deal, computed by the browser from the revealed seeds.
    page.goto(f"{live_daphne}/games/{game.pk}/record/")
    page.locator("#verify").scroll_into_view_if_needed()  # the check runs once it is in view
    expect(page.locator("#verify-summary")).to_have_attribute("data-state", "ok")
    expect(page.locator("#verify-summary")).to_contain_text(f"All {deals} deal")
    expect(page.locator('[data-verify-status="ok"]')).to_have_count(deals)
    expect(page.locator('[data-verify-status="bad"]')).to_have_count(0)
    expect(page.locator(".score-chart svg:visible")).to_be_visible()
    screenshot(page, "history-record")
    assert serious_axe_violations(page) == []

    # A tampered seed fails the check in the same code.
    ok = page.evaluate("""async () => {
        const data = JSON.parse(document.getElementById('verify-data').textContent)[0];
        const V = window.CribbageVerify;
        const seed = V.hexToBytes(data.seed);
        const hash = V.bytesToHex(await V.sha256(seed));
        const dealt = V.deal(await V.shuffle(seed), data.dealer);
        const other = V.deal(await V.shuffle(V.hexToBytes('00' + data.seed.slice(2))), data.dealer);
        const same = (a, b) => a.slice().sort().join() === b.slice().sort().join();
        return [hash === data.commitment, same(dealt.hands[0], data.hands[0]),
                same(other.hands[0], data.hands[0])];
    }""")
    assert ok == [True, True, False]

    # The replay: buttons, then arrow keys; the URL follows each step.
    page.get_by_role("link", name="Replay").click()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[0]))
    expect(page.get_by_role("button", name="Back")).to_be_disabled()
    page.get_by_role("button", name="Forward").click()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[1]))
    expect(page).to_have_url(re.compile(rf"\?step={shown[1]}$"))
    page.get_by_role("button", name="Forward").click()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[2]))
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[3]))
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[4]))
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[3]))
    expect(page).to_have_url(re.compile(rf"\?step={shown[3]}$"))
    # Two presses quicker than a step loads are two steps, not one.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[5]))
    expect(page).to_have_url(re.compile(rf"\?step={shown[5]}$"))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[3]))
    forward = page.get_by_role("button", name="Forward")
    for _ in range(3):  # quick clicks count too, each one a step
        forward.click()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[6]))
    page.get_by_role("button", name="Back").click()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[5]))
    page.keyboard.press("End")
    expect(page.get_by_test_id("step")).to_have_text(str(total))
    expect(page.get_by_role("button", name="Forward")).to_be_disabled()
    expect(page.locator(".replay-results")).to_contain_text("wins")
    screenshot(page, "history-replay-end")
    page.keyboard.press("Home")
    expect(page.get_by_test_id("step")).to_have_text("0")

    # A step can be linked to; the board there shows both hands face up.
    page.goto(f"{live_daphne}/games/{game.pk}/replay/?step=12")
    expect(page.get_by_test_id("step")).to_have_text("12")
    expect(page.locator(".replay-table .seat")).to_have_count(2)
    screenshot(page, "history-replay-step")
    assert serious_axe_violations(page) == []
    page.go_back()
    expect(page.get_by_test_id("step")).to_have_text("0")

    # The explanation page's checker shuffles the engine's documented example the same way.
    page.goto(f"{live_daphne}/fair-deals/")
    page.get_by_label("Seed (hex)").fill("6578616d706c65")  # b"example"
    page.get_by_role("button", name="Shuffle and deal").click()
    first_six = "2\u2666 A\u2666 J\u2660 6\u2660 Q\u2663 10\u2665"  # deck.py's doctest: 2D AD JS 6S QC TH
    expect(page.locator("#verify-output")).to_contain_text(f"Deck, top first: {first_six}")
    assert serious_axe_violations(page) == []


def test_replay_presses_as_a_step_lands_are_steps_by_htmx(live_daphne: str, page: Page, alice, bob):
    """A press in the moments after a step's answer arrives, before htmx has taken over the new
    buttons, is one more step, fetched by htmx: it once clicked a button htmx did not yet handle, so
    the browser submitted the form itself (a whole page load) and the press was sometimes lost."""
    page.set_default_timeout(15000)
    game = finish_between(alice, bob, seed=61, rules=HouseRules(target=61))
    shown = shown_moves(list(Move.objects.filter(game=game).order_by("seq")))  # the moves a step shows
    log_in(page, live_daphne, alice)
    page.goto(f"{live_daphne}/games/{game.pk}/replay/")
    expect(page.get_by_test_id("step")).to_have_text("0")
    loads = []
    page.on("load", lambda p: loads.append(p.url))
    step = 0
    for gap_ms in range(0, 45, 5):  # htmx settles a swap 20 ms after it
        page.evaluate("""(gap) => {
            const press = () => document.dispatchEvent(
                new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
            document.addEventListener("htmx:afterRequest", () => setTimeout(press, gap), {once: true});
            press();
        }""", gap_ms)
        step += 2
        expect(page.get_by_test_id("step")).to_have_text(str(shown[step]))  # the step in the URL
        expect(page).to_have_url(re.compile(rf"\?step={shown[step]}$"))
    assert loads == []

    # Back in the browser while a step is still loading: the step in flight belonged to the page
    # taken away, so it is called off (its answer would push its URL over the restored step), and the
    # keys go on working from the step restored.
    called_off = []
    page.on("requestfailed", lambda r: called_off.append(r.url) if A_STEP.search(r.url) else None)
    hold_the_next_step(page, lambda: page.keyboard.press("ArrowRight"))
    page.go_back()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[step - 1]))
    until_handled(page, lambda: called_off, "the step of the page taken away called off")
    expect(page).to_have_url(re.compile(rf"\?step={shown[step - 1]}$"))
    page.unroute(A_STEP)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[step]))
    assert loads == []


def replay_at_third_step(page: Page, live_daphne: str, alice, bob) -> list[int]:
    """Alice's replay of a finished game, open at its third step; the moves each step shows."""
    page.set_default_timeout(15000)
    game = finish_between(alice, bob, seed=61, rules=HouseRules(target=61))
    shown = shown_moves(list(Move.objects.filter(game=game).order_by("seq")))
    log_in(page, live_daphne, alice)
    page.goto(f"{live_daphne}/games/{game.pk}/replay/?step={shown[2]}")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[2]))
    return shown


def test_a_step_answered_with_nothing_to_swap_does_not_hold_up_the_next(live_daphne: str, page: Page,
                                                                         alice, bob):
    """A step can end without a settle on the replay (an answer with nothing to swap, or one Back
    took away): the next press is a step, not a press queued behind a step that is over."""
    shown = replay_at_third_step(page, live_daphne, alice, bob)
    answered = []
    page.route(A_STEP, lambda route: (answered.append(route.request.url), route.fulfill(status=204)), times=1)
    page.keyboard.press("ArrowRight")
    until_handled(page, lambda: answered, "the step answered with nothing")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step")).to_have_text(str(shown[3]))
    expect(page).to_have_url(re.compile(rf"\?step={shown[3]}$"))


def test_replay_clicks_while_a_step_loads_are_each_a_step(live_daphne: str, page: Page, alice, bob):
    """Forward clicked twice while the step before is still on its way: three steps in all. htmx
    held such a click for the form being swapped away and then dropped it."""
    shown = replay_at_third_step(page, live_daphne, alice, bob)
    forward = page.get_by_role("button", name="Forward")
    held = hold_the_next_step(page, forward.click)
    forward.click()
    forward.click()
    held.continue_()
    expect(page.get_by_test_id("step")).to_have_text(str(shown[5]))
    expect(page).to_have_url(re.compile(rf"\?step={shown[5]}$"))
    page.unroute(A_STEP)


def test_tables_of_three_and_four_verify_and_replay_in_the_browser(live_daphne: str, page: Page,
                                                                   alice, bob, carol):
    page.set_default_timeout(15000)
    game = finish_table(alice, [{"kind": "open"}, {"kind": "invite", "user": carol}, EASY],
                        rules=HouseRules(players=4, target=61), seed=71, accept=((bob, 1), (carol, 2)))
    three = finish_table(alice, [EASY, EASY], rules=HouseRules(players=3, target=61), seed=72)
    log_in(page, live_daphne, bob)
    for table in (game, three):
        if table.vs_computer:
            log_in(page, live_daphne, alice)
        deals = Round.objects.filter(game=table).count()
        page.goto(f"{live_daphne}/games/{table.pk}/record/")
        page.locator("#verify").scroll_into_view_if_needed()
        expect(page.locator("#verify-summary")).to_have_attribute("data-state", "ok")
        expect(page.locator('[data-verify-status="ok"]')).to_have_count(deals)
        sides = 2 if table.players == 4 else 3
        expect(page.locator(".score-chart svg:visible polyline")).to_have_count(sides)
        screenshot(page, f"history-record-{table.players}")
        assert serious_axe_violations(page) == []
        total = Move.objects.filter(game=table).count()
        page.goto(f"{live_daphne}/games/{table.pk}/replay/?step={total // 2}")
        expect(page.locator(".replay-table .seat")).to_have_count(table.players)
        screenshot(page, f"history-replay-{table.players}")
        assert serious_axe_violations(page) == []
        # On a phone every seat of the table fits the screen's width: nothing to scroll sideways.
        page.set_viewport_size(PHONE)
        page.reload()
        expect(page.locator(".replay-table .seat")).to_have_count(table.players)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        for seat in page.locator(".replay-table .seat").all():
            box = seat.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5
        screenshot(page, f"history-replay-{table.players}-phone")
        assert serious_axe_violations(page) == []
        page.set_viewport_size(DESKTOP)

    # The checker deals a seed for three: five each, the next card to the crib, the starter after.
    page.goto(f"{live_daphne}/fair-deals/")
    page.get_by_label("Seed (hex)").fill("6578616d706c65")
    page.get_by_label("Players").select_option("3")
    page.get_by_label("Dealer").select_option("2")
    page.get_by_role("button", name="Shuffle and deal").click()
    output = page.locator("#verify-output")
    expect(output).to_contain_text("Seat 1: ")
    expect(output).to_contain_text("Seat 3 (dealer): ")
    expect(output).to_contain_text("Straight to the crib: ")
    deck = output.locator("p").nth(1).inner_text().removeprefix("Deck, top first: ").split(" ")
    expect(output).to_contain_text(f"Straight to the crib: {deck[15]}")
    expect(output).to_contain_text(f"Starter: {deck[16]}")
