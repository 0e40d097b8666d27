"""The lobby's table form in Chromium: a seat's invitee box only while that seat is an invitation,
the fourth seat only at a table of four."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import screenshot, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SIZES = {"laptop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


def test_the_table_form_shows_only_the_fields_that_apply(live_daphne: str, page: Page):
    sign_up(page, live_daphne, "tablesetter")
    invitee = {n: page.locator(f"#id_table-seat_{n}_player") for n in (1, 2, 3)}
    for box in invitee.values():  # every seat starts as a computer
        expect(box).to_be_hidden()

    page.locator("#id_table-seat_2").select_option("invite")
    expect(invitee[2]).to_be_visible()
    expect(invitee[1]).to_be_hidden()
    page.locator("#id_table-seat_3").select_option("invite")
    expect(invitee[3]).to_be_visible()

    page.get_by_label("Players").select_option("3")
    expect(page.locator("#id_table-seat_3")).to_be_hidden()
    expect(invitee[3]).to_be_hidden()  # its seat is gone, whatever the seat said
    expect(invitee[2]).to_be_visible()

    page.get_by_label("Players").select_option("4")
    expect(invitee[3]).to_be_visible()
    page.locator("#id_table-seat_2").select_option("expert")
    expect(invitee[2]).to_be_hidden()

    # An invitation without a name comes back with its error, and its box stays in sight.
    page.locator("#id_table-seat_2").select_option("invite")
    page.locator("#id_table-seat_3").select_option("easy")
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_text("Name the player to invite.")).to_be_visible()
    expect(invitee[2]).to_be_visible()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_table_at_your_own_pace_from_the_lobby(live_daphne: str, page: Page, size: str):
    page.set_viewport_size(SIZES[size])
    sign_up(page, live_daphne, f"pacesetter-{size}")
    form = page.locator("form", has=page.get_by_role("button", name="Open the table"))
    form.get_by_label("Players").select_option("3")
    page.locator("#id_table-seat_1").select_option("open")
    form.get_by_label("Pace").select_option("3")
    # A computer may sit at a table played at each one's own pace: it moves when its turn comes.
    expect(page.locator("#id_table-seat_2")).to_have_value("standard")
    expect(form.get_by_text("a computer in a seat moves as soon as its turn comes")).to_be_visible()
    form.locator("#id_table-seat_2").scroll_into_view_if_needed()
    screenshot(page, f"lobby-table-own-pace-form-{size}", full_page=False)
    form.get_by_role("button", name="Open the table").click()
    expect(page.get_by_text("Your table is posted")).to_be_visible()
    listed = page.get_by_text("at your own pace, 3 days a move").first
    expect(listed).to_be_visible()
    listed.scroll_into_view_if_needed()
    screenshot(page, f"lobby-table-own-pace-posted-{size}", full_page=False)
