"""Games at your own pace in Chromium, at laptop and phone widths: one created from the lobby as an
invitation with days a move, the "Your turn" list a busy player comes back to, the least time
left first, from the menu's count to the board's clock, and that count following the other
player's move on a page left open."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.correspondence.models import SeatClock
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.correspondence.support import correspondence_game, move_once
from tests.e2e.helpers import log_in, screenshot, serious_axe_violations
from tests.live.support import HttpPlayer, session_key
from tests.play.factories import load, random_action

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


def _player(name: str):
    return get_user_model().objects.create_user(name, email=f"{name}@example.com")


def _waiting_on(alice, opponent, *, days: int, left: timedelta) -> Game:
    """A game in which ``opponent`` has cut and alice has ``left`` to cut (the clock set directly:
    the live server reads the real time)."""
    seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=opponent, days_per_move=days)
    game = services.game_accept(user=opponent, game_id=seek.pk)
    services.game_act(user=opponent, game_id=game.pk, version=game.version, action={"type": "cut_for_deal",
                                                                                   "position": 10})
    SeatClock.objects.filter(game=game, index=0).update(deadline_at=timezone.now() + left)
    return game


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_correspondence_invitation_from_the_lobby(live_daphne: str, page: Page, size: str):
    page.set_viewport_size(SIZES[size])
    alice, _ = _player("alice"), _player("bob")
    log_in(page, live_daphne, alice)
    page.goto(f"{live_daphne}/lobby/")
    form = page.locator("form", has=page.get_by_label("Invite a player (optional)"))
    form.get_by_label("Invite a player (optional)").fill("bob")
    form.locator("summary", has_text="Options").click()  # the pace is among the folded options
    form.get_by_label("Pace").select_option("3")
    form.scroll_into_view_if_needed()
    screenshot(page, f"correspondence-new-game-{size}", full_page=False)
    form.get_by_role("button").last.click()
    expect(page.get_by_text("Invitation sent to bob.")).to_be_visible()
    expect(page.get_by_text("at your own pace, 3 days a move")).to_be_visible()
    assert Game.objects.get(invited__username="bob").days_per_move == 3


@pytest.mark.parametrize("size", sorted(SIZES))
def test_your_turn_lists_the_games_waiting_least_time_left_first(live_daphne: str, page: Page, size: str):
    page.set_viewport_size(SIZES[size])
    alice = _player("alice")
    slow = _waiting_on(alice, _player("bob"), days=7, left=timedelta(days=6, hours=3))
    fast = _waiting_on(alice, _player("carol"), days=1, left=timedelta(hours=5))
    late = _waiting_on(alice, _player("dave"), days=2, left=timedelta(hours=-2))
    theirs = services.game_accept(user=_player("erin"), game_id=services.game_create_seek(
        user=alice, rules=HouseRules(), invited=get_user_model().objects.get(username="erin"),
        days_per_move=3).pk)
    services.game_act(user=alice, game_id=theirs.pk, version=theirs.version,
                      action={"type": "cut_for_deal", "position": 3})
    log_in(page, live_daphne, alice)
    page.goto(f"{live_daphne}/rules/")
    if size == "phone":
        page.get_by_role("button", name="Menu").click()
    page.get_by_role("link", name="Your turn (3)").click()
    expect(page.get_by_role("heading", name="Waiting on you (3)")).to_be_visible()
    rows = page.get_by_test_id("waiting-on-me").locator("li")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("against dave")
    expect(rows.nth(0)).to_contain_text("out of time")
    expect(rows.nth(1)).to_contain_text("against carol")
    expect(rows.nth(2)).to_contain_text("against bob")
    expect(page.get_by_test_id("waiting-on-them")).to_contain_text("against erin")
    screenshot(page, f"correspondence-your-turn-{size}")
    assert serious_axe_violations(page) == []
    for n, game in enumerate((late, fast, slow)):
        expect(rows.nth(n).get_by_role("link")).to_have_attribute("href", f"/games/{game.pk}/")

    rows.nth(1).get_by_role("link").click()
    clock = page.get_by_test_id("correspondence-clock")
    expect(clock).to_contain_text("1 day a move")
    expect(clock).to_contain_text("You")
    screenshot(page, f"correspondence-board-{size}", full_page=False)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_table_of_four_at_your_own_pace_claims_on_time_against_the_other_side(
    live_daphne: str, page: Page, size: str
):
    page.set_viewport_size(SIZES[size])
    ann, ben, cat, dan = (_player(name) for name in ("ann", "ben", "cat", "dan"))
    table = services.game_create_table(user=ann, rules=HouseRules(players=4), days_per_move=2,
                                       seats=[{"kind": "invite", "user": u} for u in (ben, cat, dan)])
    for guest in (ben, cat, dan):
        table = services.game_accept(user=guest, game_id=table.pk)
    for user, position in ((ann, 3), (ben, 9), (cat, 15)):
        table.refresh_from_db()
        services.game_act(user=user, game_id=table.pk, version=table.version,
                          action={"type": "cut_for_deal", "position": position})
    SeatClock.objects.filter(game=table, index=3).update(deadline_at=timezone.now() - timedelta(hours=2))
    log_in(page, live_daphne, ann)
    page.goto(f"{live_daphne}/games/{table.pk}/")
    clock = page.get_by_test_id("correspondence-clock")
    expect(clock).to_contain_text("2 days a move")
    expect(clock.locator("li")).to_have_count(4)
    expect(clock.locator(".correspondence-clock__row--out")).to_contain_text("dan")
    claim = clock.get_by_role("button", name="Claim the win on time")
    expect(claim).to_be_visible()
    clock.scroll_into_view_if_needed()
    screenshot(page, f"correspondence-table-out-of-time-{size}", full_page=False)
    assert serious_axe_violations(page) == []
    claim.click()
    expect(claim).to_have_count(0)
    expect(page.locator("#board")).to_contain_text("You & cat win on time")
    table.refresh_from_db()
    assert table.status == Game.Status.FINISHED and table.winner_seat % 2 == 0
    screenshot(page, f"correspondence-table-won-on-time-{size}", full_page=False)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_table_at_your_own_pace_with_the_computer_in_a_seat(live_daphne: str, page: Page, size: str):
    import random

    from tests.play.factories import load, play_out

    page.set_viewport_size(SIZES[size])
    ann, ben = _player("ann"), _player("ben")
    table = services.game_create_table(
        user=ann, rules=HouseRules(players=3), days_per_move=2,
        seats=[{"kind": "invite", "user": ben}, {"kind": "computer", "level": "expert"}])
    table = services.game_accept(user=ben, game_id=table.pk)
    # Ben to play, the computer next (seat 2 follows seat 1), then ann.
    play_out(table, {0: ann, 1: ben}, random.Random(3), stop=lambda s: s.phase == "play" and s.to_act == (1,))
    table.refresh_from_db()
    seen = table.version
    log_in(page, live_daphne, ben)
    page.goto(f"{live_daphne}/games/{table.pk}/")
    clock = page.get_by_test_id("correspondence-clock")
    expect(clock).to_contain_text("2 days a move")
    expect(clock.locator("li")).to_have_count(2)  # a clock for each person; the computer needs none
    with page.expect_response(lambda r: r.url.endswith("/act/")) as answer:
        page.locator(".play-form .hand button[name=card]:enabled").first.click()
    # The answer to ben's card is his move alone; the computer's comes from its task, pushed to
    # the board, which never asks for it.
    answered = int(re.search(r'id="board"[^>]* data-version="(\d+)"', answer.value.text()).group(1))
    assert answered == seen + 1
    page.wait_for_function(f"() => Number(document.getElementById('board').dataset.version) >= {seen + 2}")
    table.refresh_from_db()
    assert 2 not in load(table).to_act
    expect(page.locator("form.computer-step")).to_have_count(0)
    page.locator("#board").scroll_into_view_if_needed()
    screenshot(page, f"correspondence-table-with-the-computer-{size}", full_page=False)
    assert serious_axe_violations(page) == []


# A page of each kind of socket: the rules page's notices socket, the lobby's own.
OPEN_PAGE = {"laptop": "/rules/", "phone": "/lobby/"}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_your_turn_counts_the_other_players_move_on_a_page_left_open(live_daphne: str, page: Page, size: str):
    page.set_viewport_size(SIZES[size])
    alice, bob = _player("alice"), _player("bob")
    _waiting_on(alice, _player("carol"), days=1, left=timedelta(hours=5))
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)  # alice cuts: it waits on bob
    log_in(page, live_daphne, alice)
    page.goto(f"{live_daphne}{OPEN_PAGE[size]}")
    if size == "phone":
        page.get_by_role("button", name="Menu").click()
    link = page.get_by_test_id("your-turn-link")
    expect(link).to_have_text("Your turn (1)")
    # The page's socket is open (its user's group joined) before the move is made.
    page.wait_for_function("""() => [...document.querySelectorAll("[data-socket]")].some((el) => {
      const ws = window.LiveSocket.socketOf(el);
      return ws && ws.readyState === WebSocket.OPEN;
    })""")
    game.refresh_from_db()
    # Bob cuts through the site, as his browser would: now the deal waits on alice too.
    cut = random_action(load(game), 1, random.Random(1))
    status, _ = HttpPlayer(live_daphne, session_key(bob)).act(game.pk, game.version, cut)
    assert status == 200
    expect(link).to_have_text("Your turn (2)")
    expect(page.get_by_test_id("your-turn-link")).to_have_count(1)
    screenshot(page, f"correspondence-your-turn-live-{size}", full_page=False)
    link.click()
    expect(page.get_by_role("heading", name="Waiting on you (2)")).to_be_visible()
