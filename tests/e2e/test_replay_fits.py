"""The replay and the statistics on one screen at 1280x720 and on a 390x844 phone: the replay's
title, step buttons, table and pegboard without scrolling, its log a click away; the statistics'
tables with room round their titles."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, expect

from games.engine.rules import HouseRules
from games.history.replay_board import shown_moves
from games.play.models import Move
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.e2e.table_checks import labels_past_two_lines
from tests.e2e.test_board_fits import LAPTOP, PHONE, RULES, in_view, no_sideways_scroll, open_page
from tests.play.factories import computer_game, make_user, play_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


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
        title_reads_whole(page)
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


def title_reads_whole(page) -> None:
    """The replay's title (who played whom) is read whole, in two lines at most, clear of the
    "Log and more" button beside it on a phone."""
    title = page.locator(".history-header--replay h1")
    expect(title).to_have_text(re.compile(r"^Replay: alice-replay-\w+ v Computer \(easy\)$"))
    box = in_view(page, ".history-header--replay h1")
    assert title.evaluate("h => h.scrollWidth <= h.clientWidth && h.scrollHeight <= h.clientHeight + 1"), (
        "the replay's title is cut short")
    assert labels_past_two_lines(page, ".history-header--replay h1") == []
    toggle = page.locator(".replay-drawer .board-drawer__toggle")
    if toggle.is_visible():
        button = toggle.bounding_box()
        assert box["x"] + box["width"] <= button["x"] or box["y"] >= button["y"] + button["height"], (
            "the replay's title runs under the drawer's button")
