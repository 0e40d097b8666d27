"""A move that cannot reach the server is never dropped in silence, and the presence line keeps
time by itself: how long ago a player left, and the countdown to the claim of a win."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games.play.models import Game, Move
from tests.e2e.helpers import screenshot, serious_axe_violations
from tests.e2e.test_board_layout import DESKTOP, PHONE, open_board
from tests.live.support import HttpPlayer, session_key
from tests.play.factories import human_game, make_user, socket_last_heard

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def test_a_move_the_server_never_got_is_said_and_sent_again(browser: Browser, live_daphne: str):
    page = open_board(browser, live_daphne, DESKTOP)
    version = int(page.locator("#board").get_attribute("data-version"))
    act = re.compile(r"/games/\d+/act/")
    page.route(act, lambda route: route.abort("connectionfailed"))
    # The fanned deck overlaps: click the visible edge of a card the computer has not taken.
    page.locator(".cut-deck button.fan__card:not([disabled])").nth(20).click(position={"x": 6, "y": 20})
    note = page.locator("#unsent")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not sent yet: the server cannot be reached")
    # The request that failed says more than the open socket: the status does not say "Connected".
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "open")
    screenshot(page, "board-not-sent-desktop")
    page.unroute(act)
    # Sent again by itself, and the board moves on: the computer cut too, so the deal is made.
    page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) > v", arg=version,
                           timeout=15000)
    expect(note).to_have_text("Your move was sent.")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(note).to_be_hidden(timeout=10000)


def alice_s_board(browser: Browser, live_daphne: str, game: Game, viewport: dict) -> Page:
    # The service worker, once it claims the page, would send its POSTs past the page's routes and
    # its offline emulation: these tests cut the network between the page and the server.
    context = browser.new_context(viewport=viewport, service_workers="block")
    context.add_cookies([{"name": "sessionid", "value": session_key(game.created_by), "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    return page


def cuts(game: Game, seat: int) -> int:
    return Move.objects.filter(game=game, seat=seat, action__type="cut_for_deal").count()


def test_a_move_whose_answer_was_lost_is_sent_again_and_made_once(browser: Browser, live_daphne: str):
    """The server makes the move and the network drops its answer: the page sends it again, and
    the server answers with the board instead of making it twice or calling it stale."""
    game = human_game(make_user("alice-lost"), make_user("bob-lost"))
    page = alice_s_board(browser, live_daphne, game, {"width": 1280, "height": 720})
    seen = int(page.locator("#board").get_attribute("data-version"))
    answers_lost = []

    def lose_the_first_answer(route):
        if answers_lost:
            route.continue_()
            return
        route.fetch()  # the server gets the move and makes it
        answers_lost.append(route.request.url)
        route.abort("connectionfailed")  # and its answer never reaches the page

    page.route(re.compile(r"/games/\d+/act/"), lose_the_first_answer)
    page.get_by_role("button", name="Cut at card 20").click(position={"x": 6, "y": 20})  # fanned cards
    page.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) > v", arg=seen,
                           timeout=15000)
    expect(page.locator("#unsent")).to_have_text("Your move was sent.")
    assert answers_lost and cuts(game, 0) == 1
    game.refresh_from_db()
    assert game.version == seen + 1
    expect(page.locator(".board-error")).to_have_count(0)


def test_a_move_the_board_left_behind_is_said_not_made(browser: Browser, live_daphne: str):
    """Alice's cut cannot be sent; Bob takes the same card meanwhile. When it can be sent, the
    server refuses it as stale, and the page says plainly that her move was not made."""
    alice, bob = make_user("alice-behind"), make_user("bob-behind")
    game = human_game(alice, bob)
    page = alice_s_board(browser, live_daphne, game, PHONE)
    act_url = re.compile(r"/games/\d+/act/")
    page.route(act_url, lambda route: route.abort("connectionfailed"))
    sockets_opened = []
    page.on("websocket", lambda socket: sockets_opened.append(socket.url))
    page.get_by_role("button", name="Cut at card 20").click(position={"x": 6, "y": 20})
    note = page.locator("#unsent")
    expect(note).to_contain_text("Not sent yet")
    # The page keeps trying; a failed try replaces the board's socket at most once (a handshake that
    # fresh proves the socket), not at every try, which left no socket open long enough to hear Bob.
    for _ in range(3):
        page.wait_for_event("request", lambda request: bool(act_url.search(request.url)))
    assert len(sockets_opened) <= 1, sockets_opened
    # Bob cuts through the server, as his browser would, so the push comes from where pushes come from.
    game.refresh_from_db()
    bob_posts = HttpPlayer(live_daphne, session_key(bob))
    status, _ = bob_posts.act(game.pk, game.version, {"type": "cut_for_deal", "position": "19"})  # card 20
    assert status == 200
    expect(page.get_by_role("button", name="Card 20, cut by bob-behind")).to_be_visible()  # pushed
    page.unroute(act_url)
    not_made = "Your move was not made: the board changed while you were away."
    expect(note).to_have_text(not_made, timeout=10000)
    expect(page.locator(".board-error")).to_contain_text("The board changed since you last saw it")
    screenshot(page, "board-move-not-made-phone")
    assert cuts(game, 0) == 0 and cuts(game, 1) == 1


@pytest.mark.parametrize(("name", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_a_move_kept_when_its_page_closed_is_sent_by_the_next_page_of_the_board(
    browser: Browser, live_daphne: str, name: str, viewport: dict
):
    """Alice's cut cannot be sent and she closes the page while it waits (or reloads it, or the
    browser goes): the next page of that board in this browser sends it, and only once."""
    game = human_game(make_user(f"alice-kept-{name}"), make_user(f"bob-kept-{name}"))
    page = alice_s_board(browser, live_daphne, game, viewport)
    seen = int(page.locator("#board").get_attribute("data-version"))
    context = page.context
    context.set_offline(True)
    page.get_by_role("button", name="Cut at card 20").click(position={"x": 6, "y": 20})  # fanned cards
    expect(page.locator("#unsent")).to_contain_text("Not sent yet")
    page.close()
    context.set_offline(False)
    # The fresh page says the move was sent only if it sent the kept one (made or, had the cut
    # reached the server before the page went offline, answered as already made).
    again = context.new_page()
    again.goto(f"{live_daphne}/games/{game.pk}/")
    expect(again.locator("#unsent")).to_have_text("Your move was sent.")
    again.wait_for_function("(v) => Number(document.querySelector('#board').dataset.version) > v", arg=seen)
    expect(again.get_by_text("Waiting for the other cut…")).to_be_visible()
    screenshot(again, f"board-kept-move-sent-{name}")
    assert cuts(game, 0) == 1
    # Sent, it is forgotten: the page after that sends nothing and says nothing.
    again.close()
    third = context.new_page()
    third.goto(f"{live_daphne}/games/{game.pk}/")
    expect(third.locator("#connection")).to_have_attribute("data-state", "open")
    expect(third.locator("#unsent")).to_be_hidden()
    assert third.evaluate("() => localStorage.getItem('cribbage:unsent-moves')") is None
    assert cuts(game, 0) == 1
    context.close()


def test_a_kept_move_is_sent_only_for_the_player_who_made_it(browser: Browser, live_daphne: str):
    """Another player signing in on the same browser does not send Alice's kept move as their own;
    Alice's next page of the board sends it."""
    alice, bob = make_user("alice-shared"), make_user("bob-shared")
    game = human_game(alice, bob)
    page = alice_s_board(browser, live_daphne, game, DESKTOP)
    context = page.context
    # What Alice's page kept when her cut could not be sent (test_a_move_kept_when_its_page_closed…).
    page.evaluate("""([key, path, body]) => localStorage.setItem("cribbage:unsent-moves",
        JSON.stringify({[key]: {path: path, body: body, button: null, saved: Date.now()}}))""",
                  [f"{alice.pk} /games/{game.pk}/act/", f"/games/{game.pk}/act/",
                   f"version={game.version}&type=cut_for_deal&position=19"])
    page.close()
    context.clear_cookies()
    context.add_cookies([{"name": "sessionid", "value": session_key(bob), "url": live_daphne}])
    bobs = context.new_page()
    bobs.goto(f"{live_daphne}/games/{game.pk}/")
    expect(bobs.locator("#connection")).to_have_attribute("data-state", "open")
    expect(bobs.locator("#unsent")).to_be_hidden()
    assert cuts(game, 0) == 0 and cuts(game, 1) == 0
    bobs.close()
    context.clear_cookies()
    context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": live_daphne}])
    alices = context.new_page()
    alices.goto(f"{live_daphne}/games/{game.pk}/")
    expect(alices.locator("#unsent")).to_have_text("Your move was sent.")
    assert cuts(game, 0) == 1 and cuts(game, 1) == 0
    context.close()


@pytest.mark.parametrize(("name", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_the_presence_line_ticks_by_itself(browser: Browser, live_daphne: str, settings, name, viewport):
    alice, bob = make_user(f"alice{name}"), make_user(f"bob{name}")
    game: Game = human_game(alice, bob)
    # Bob's socket went silent five minutes ago; the claim waits three from when his turn began.
    socket_last_heard(game, bob, f"gone-{name}", timezone.now() - timedelta(minutes=5))
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=175))
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_key(alice), "url": live_daphne}])
    page = context.new_page()
    page.goto(f"{live_daphne}/games/{game.pk}/")
    away = page.locator("#presence .presence__seat--away")
    expect(away).to_contain_text(f"bob{name} has left the table (2 minutes ago)")
    countdown = page.locator("#presence time[data-countdown]")
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first)  # it counts down on the page
    screenshot(page, f"board-presence-{name}")
    # When the countdown runs out the line is asked for again and offers the claim.
    expect(page.get_by_role("button", name="Claim the win")).to_be_visible(timeout=20000)
    assert serious_axe_violations(page) == []
