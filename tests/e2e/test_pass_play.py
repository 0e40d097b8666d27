"""Pass and play in Chromium: the game started from the lobby, a pass screen between the people at
the device that holds no hidden card (in the page, its answers or its socket), each player's board
after their tap, played to the end."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from games.engine.cards import DECK
from games.play import services
from games.play.models import Game
from tests.e2e.helpers import phase_and_version, screenshot, serious_axe_violations, sign_up
from tests.e2e.test_play_computer import _click_if_enabled
from tests.play.factories import stack
from tests.play.test_hidden_information import cards_in
from tests.play.test_pass_play import cuts_for_deal, public

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 720}


class Watch:
    """Every answer and socket message the page gets that draws a pass screen: none may hold a card.
    A pass screen is the board's whole element: no card of any kind is drawn in it."""

    def __init__(self, page: Page) -> None:
        self.passes = 0
        self.responses: list = []
        page.on("response", lambda r: self.responses.append(r))
        self.frames: list = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: self.frames.append(frame)))

    def check_answers(self) -> None:
        """The page's answers so far (read here: a handler may not wait on a body)."""
        for response in self.responses:
            if "text/html" in response.headers.get("content-type", ""):
                with contextlib.suppress(PlaywrightError):  # a page reloaded since has let it go
                    self._check(response.text())
        self.responses.clear()
        for frame in self.frames:
            self._check(frame)
        self.frames.clear()

    def _check(self, body) -> None:
        if isinstance(body, str) and "phase-pass" in body:
            board = body[body.index('id="board"'):] if 'id="board"' in body else body
            board = board[:board.find("</section>")]
            assert not cards_in(board, DECK), f"a pass screen carried {cards_in(board, DECK)}"
            self.passes += 1


def start(page: Page, base: str, user: str, seats: list[str]) -> Game:
    sign_up(page, base, user)
    page.get_by_role("link", name="Pass and play").click()
    page.get_by_label("Players").select_option(str(len(seats)))
    for n, seat in enumerate(seats, start=1):
        if seat.startswith("computer:"):
            page.locator(f"#id_pass-seat_{n}").select_option(seat.split(":")[1])
        else:
            page.locator(f"#id_pass-seat_{n}").select_option("person")
            page.locator(f"#id_pass-seat_{n}_name").fill(seat)
    page.locator("summary", has_text="House rules").click()
    page.locator("#id_pass-target").select_option("61")
    screenshot(page, f"pass-play-form-{page.viewport_size['width']}")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".phase-pass")).to_be_visible()
    return Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))


def play_to_the_end(page: Page, game: Game, watch: Watch, size: str, *, discard: int) -> set[str]:
    """Tap each pass screen (checking the page holds no hidden card), play the board shown."""
    board, names, shots = page.locator("#board"), set(), set()
    for _ in range(400):
        if page.locator("section.result").count():
            return names
        classes, before = phase_and_version(board)
        if "phase-pass" in classes:
            game.refresh_from_db()
            state = services.load_state(game)
            # The whole page as the browser holds it (axe-core, once injected, sits in the head).
            dom = page.evaluate("() => document.title + document.body.outerHTML")
            leaked = cards_in(dom, set(DECK) - public(state) - cuts_for_deal(game))
            assert not leaked, f"the pass screen's page shows {sorted(map(str, leaked))}"
            watch.check_answers()
            if "pass" not in shots:
                shots.add("pass")
                screenshot(page, f"pass-play-pass-screen-{size}")
                assert serious_axe_violations(page) == []
            button = page.locator("#show-hand")
            names.add((button.text_content() or "").strip())
            with contextlib.suppress(PlaywrightError):
                _click_if_enabled(page, button)
            continue
        if "phase-cut" in classes:
            free = page.locator(".cut-deck button.fan__card:not([disabled])")
            if free.count() and _click_if_enabled(page, free):
                continue
        if "phase-discard" in classes and page.locator(".discard-fieldset").count():
            if "board" not in shots:
                shots.add("board")
                screenshot(page, f"pass-play-board-{size}")
            for k in range(discard):
                page.get_by_role("checkbox").nth(k).check()
            if _click_if_enabled(page, page.get_by_role("button", name="Lay away to the crib")):
                continue
        if "phase-play" in classes:
            if _click_if_enabled(page, page.get_by_role("button", name="Go", exact=True)):
                continue
            if _click_if_enabled(page, page.locator(".play-form button.playable:not([disabled])")):
                continue
        if "phase-starter" in classes and _click_if_enabled(page, page.locator(".cut-starter-form button")):
            continue
        if "phase-show" in classes:
            if "show" not in shots:
                shots.add("show")
                screenshot(page, f"pass-play-show-{size}")
            if _click_if_enabled(page, page.get_by_role("button", name="Next hand")):
                continue
        expect(board).not_to_have_attribute("data-version", before)  # a computer's move, an answer
    pytest.fail("the game did not finish")


def test_two_people_pass_one_phone_to_the_end(live_daphne: str, page: Page):
    page.set_default_timeout(15000)
    page.set_viewport_size(PHONE)
    watch = Watch(page)
    game = start(page, live_daphne, "kitchen", ["Ann", "Ben"])
    # A short game: near the end of 61, so a deal or two decides it.
    stack(game, dealer=0, hands=["5H 5S JC 4D 6C 2H", "5D 5C TH KS 3S 9D"], starter="QD",
          scores=[52, 50])
    page.reload()
    names = play_to_the_end(page, game, watch, "phone", discard=2)
    assert names == {"I'm Ann, show my hand", "I'm Ben, show my hand"}
    watch.check_answers()
    assert watch.passes >= 4
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.rated
    screenshot(page, "pass-play-over-phone")
    expect(page.locator("section.result h2")).to_contain_text("win")


def test_four_at_one_laptop_two_people_and_two_computers(live_daphne: str, page: Page):
    page.set_default_timeout(15000)
    page.set_viewport_size(DESKTOP)
    watch = Watch(page)
    game = start(page, live_daphne, "cousins", ["Ann", "computer:easy", "Ben", "computer:easy"])
    stack(game, dealer=1, hands=["5H 5S JC 4D 6C", "5D 5C TH KS 3S", "AH 2S 3D 7C 8C", "9H 9S 4C QS KD"],
          starter="QD", scores=[52, 50])
    page.reload()
    names = play_to_the_end(page, game, watch, "desktop", discard=1)
    assert names == {"I'm Ann, show my hand", "I'm Ben, show my hand"}
    watch.check_answers()
    assert watch.passes >= 2
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
