"""In Chromium, at a laptop's 1280x720 and a phone's 390x844: the director runs an ACC event from the
desk (start, a round's results on the score sheet, an announcement), while a spectator's tournament
page follows the start without a reload (its facts too) and a player's board shows the announcement.
Each page is screenshot and checked with axe-core."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.tournaments.models import Match, Tournament
from tests.e2e.helpers import screenshot, serious_axe_violations

from .helpers import active_matches, make_players, make_tournament, refresh

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


def _signed_in(browser: Browser, base_url: str, user, viewport: dict) -> BrowserContext:
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, viewport=viewport)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "url": base_url,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            }
        ]
    )
    return context


def _shots(page: Page, name: str) -> None:
    """The page at each size, screenshot and checked with axe-core (the page is left at the laptop's)."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        # The new size is laid out, and what listens for it has run, by the second frame after it.
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        screenshot(page, f"{name}-{size}")
        assert serious_axe_violations(page) == [], size
    page.set_viewport_size(SIZES["laptop"])


@pytest.mark.slow
def test_the_director_runs_a_round_from_the_desk(live_daphne: str, browser: Browser, page: Page):
    # One test for both sizes: the desk writes the admin's log, whose content types the live server
    # caches, and a test database flushed between tests would leave it holding stale ones.
    page.set_default_timeout(15000)
    viewport = SIZES["laptop"]
    staff = get_user_model().objects.create_superuser("td", email="td@example.com", password=None)
    players = make_players(7)
    t = make_tournament(
        players,
        name="Thursday Grass Roots",
        format=Tournament.Format.ACC,
        qualifying_games=3,
        match_games=1,
        turn_timer=60,
    )
    desk = _signed_in(browser, live_daphne, staff, viewport)
    spectator = page
    spectator.set_viewport_size(viewport)
    try:
        director = desk.new_page()
        director.set_default_timeout(15000)
        director.goto(reverse("admin:tournaments_tournament_desk", args=[t.pk]))
        expect(
            director.get_by_role("heading", name="Thursday Grass Roots: the director's desk")
        ).to_be_visible()
        expect(director.locator("#what-start")).to_contain_text("Closes the entry list at 7 players")
        _shots(director, "tournament-desk-upcoming")

        # The public page, open before the start: its facts follow the start without a reload.
        spectator.goto(f"{live_daphne}{t.get_absolute_url()}")
        expect(spectator.locator(".tournament")).to_have_attribute("data-state", "open")
        expect(spectator.locator(".t-facts")).to_contain_text("open until the start")
        _shots(spectator, "tournament-page-upcoming")
        spectator.evaluate("window.__notReloaded = true")

        director.get_by_role("button", name="Start the tournament").click()
        # Nothing starts until the director confirms: the browser holds the form on the unticked box.
        expect(director.get_by_label("Yes: start the tournament now")).to_be_visible()
        assert director.locator(".messagelist").count() == 0
        director.get_by_label("Yes: start the tournament now").check()
        director.get_by_role("button", name="Start the tournament").click()
        expect(director.locator(".messagelist")).to_contain_text("Started")
        expect(spectator.locator(".t-facts")).to_contain_text("closed at the start")
        expect(spectator.locator(".t-facts")).to_contain_text("Running: qualifying round 1 of 3")
        expect(spectator.locator(".t-status")).to_contain_text("In play: qualifying round 1 of 3")
        assert spectator.evaluate("window.__notReloaded") is True

        # A player has their board open when the director announces something.
        m = sorted(active_matches(t), key=lambda m: m.slot)[0]
        player = _signed_in(browser, live_daphne, m.entrant1.user, viewport)
        board = player.new_page()
        board.set_default_timeout(15000)
        board.goto(reverse("game", args=[m.game_id]))
        expect(board.locator("#connection")).to_have_attribute("data-state", "open")
        director.get_by_label("Announcement").fill("Tea is served at the bar after round 2.")
        director.get_by_role("button", name="Post the announcement").click()
        expect(director.locator(".messagelist")).to_contain_text("Announced")
        expect(board.locator(".organiser-notice")).to_contain_text("Tea is served at the bar after round 2.")
        expect(spectator.locator("#announcements-h")).to_be_visible()
        screenshot(board, "tournament-announcement-on-the-board")
        lobby = player.new_page()
        lobby.goto(reverse("lobby"))
        expect(lobby.locator(".organiser-notice")).to_contain_text("Tea is served at the bar after round 2.")
        _shots(lobby, "tournament-announcement-in-the-lobby")
        player.close()

        # Round 1's results on the score sheet: two entered with scores, one left for later.
        matches = sorted(active_matches(t), key=lambda m: m.slot)
        director.get_by_label(f"Winner of {matches[0].label}").select_option(label=matches[0].entrant1.name)
        director.get_by_label(f"Game scores of {matches[0].label}").fill("121-88")
        director.get_by_label(f"Winner of {matches[1].label}").select_option(label=matches[1].entrant2.name)
        director.get_by_label(f"Game scores of {matches[1].label}").fill("97-121")
        director.get_by_role("button", name="Save the results").click()
        expect(director.locator(".messagelist")).to_contain_text("Saved 2 results of qualifying round 1 of 3")
        assert (
            Match.objects.filter(tournament=t, status=Match.Status.FINISHED, entrant2__isnull=False).count()
            == 2
        )
        expect(director.locator(".desk-table--standings")).to_contain_text(matches[0].entrant1.name)
        _shots(director, "tournament-desk-running")

        # A forged winner is refused with a message, and nothing changes.
        last = matches[2]
        director.evaluate(f"""() => {{
            const select = document.querySelector('[name="m{last.pk}-winner"]');
            const forged = document.createElement('option');
            forged.value = '999999'; forged.textContent = 'someone else';
            select.append(forged); select.value = '999999';
        }}""")
        with director.expect_response(lambda r: r.request.method == "POST") as answer:
            director.get_by_role("button", name="Save the results").click()
        assert answer.value.status == 400
        expect(director.locator(".errornote").first).to_contain_text("Nothing was changed")
        assert refresh(last).status == Match.Status.ACTIVE

        spectator.goto(f"{live_daphne}{t.get_absolute_url()}")
        expect(spectator.locator(".tournament")).to_have_attribute("data-state", "open")
        _shots(spectator, "tournament-page-running")

        printed = desk.new_page()
        printed.goto(reverse("tournaments:print_pairings", args=[t.pk]))
        expect(printed.get_by_role("heading", name="Pairings: Qualifying round 1 of 3")).to_be_visible()
        _shots(printed, "tournament-print-pairings")
        printed.goto(reverse("tournaments:print_standings", args=[t.pk]))
        _shots(printed, "tournament-print-standings")
    finally:
        desk.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_playoff_bracket_prints_black_on_white(live_daphne: str, page: Page, size: str):
    from games.tournaments import services

    t = make_tournament(make_players(6, prefix=f"k{size[0]}"), name="Saturday Knockout", format="ko")
    services.tournament_start(tournament_id=t.pk)
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_daphne}{reverse('tournaments:print_bracket', args=[t.pk])}")
    expect(page.get_by_role("heading", name="Bracket")).to_be_visible()
    colours = page.evaluate("""() => {
        const body = getComputedStyle(document.body);
        return {bg: body.backgroundColor, fg: body.color};
    }""")
    assert colours == {"bg": "rgb(255, 255, 255)", "fg": "rgb(0, 0, 0)"}
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.print-tools')).display") == "none"
    page.emulate_media(media="screen")
    screenshot(page, f"tournament-print-bracket-{size}")
    assert serious_axe_violations(page) == []
