"""The table preferences (sound, animations): off and on by default, kept on the account, changed
from the board (htmx) or the account page, and drawn on the board page."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.accounts.models import TablePreferences
from games.accounts.preferences import preferences_of
from games.accounts.services import account_delete
from tests.play.factories import computer_game, logged_in, make_user

pytestmark = pytest.mark.django_db

URL = reverse("table_preferences")


def test_a_new_player_has_sound_off_and_motion_on_without_a_row():
    ann = make_user("ann")
    prefs = preferences_of(ann)
    assert (prefs.sound, prefs.motion) == (False, True)
    assert not TablePreferences.objects.exists()


def test_the_board_switches_store_both_and_answer_htmx_with_no_content():
    ann = make_user("ann")
    answer = logged_in(ann).post(URL, {"sound": "on"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    prefs = TablePreferences.objects.get(user=ann)
    assert (prefs.sound, prefs.motion) == (True, False)  # the unticked box sent nothing: off


def test_the_account_page_form_goes_back_where_it_came_from():
    ann = make_user("ann")
    client = logged_in(ann)
    back = reverse("profile", args=["ann"])
    answer = client.post(URL, {"sound": "on", "motion": "on", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    page = client.get(back).content.decode()
    assert "Table preferences saved." in page
    assert 'name="sound" checked' in page and 'name="motion" checked' in page


def test_a_next_off_the_site_is_not_followed():
    ann = make_user("ann")
    answer = logged_in(ann).post(URL, {"motion": "on", "next": "https://elsewhere.example/"})
    assert answer["Location"] == reverse("profile", args=["ann"])


@pytest.mark.parametrize("back", ["0", "profile", "game"])
def test_a_next_that_reads_like_a_view_name_is_taken_as_a_url_not_looked_up(back):
    ann = make_user("ann")
    answer = logged_in(ann).post(URL, {"motion": "on", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back


@pytest.mark.parametrize("data", [{"sound": "loud"}, {"motion": "maybe", "sound": "on"}])
def test_a_value_that_is_neither_on_nor_off_is_refused_and_changes_nothing(data):
    ann = make_user("ann")
    answer = logged_in(ann).post(URL, data)
    assert answer.status_code == 400
    assert "on or off" in answer.content.decode()
    assert not TablePreferences.objects.exists()


def test_only_a_player_logged_in_may_post_and_only_by_post(client):
    assert client.post(URL, {"sound": "on"}).status_code == 302  # to the log-in page
    assert not TablePreferences.objects.exists()
    assert logged_in(make_user("ann")).get(URL).status_code == 405


def test_the_board_page_carries_the_switches_and_the_keys():
    ann = make_user("ann")
    game = computer_game(ann)
    client = logged_in(ann)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-motion="on" data-sound="off"' in page
    assert "data-live" not in page  # against the computer: no one to wait for
    assert 'id="table-keys"' in page and "Keys at the table" in page
    assert "js/table-motion.js" in page and "css/motion.css" in page
    client.post(URL, {"sound": "on"}, HTTP_HX_REQUEST="true")
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-motion="off" data-sound="on"' in page
    assert 'name="sound" checked' in page and 'name="motion">' in page


def test_the_preferences_are_in_the_data_download_and_go_with_the_account():
    ann = make_user("ann")
    client = logged_in(ann)
    client.post(URL, {"sound": "on", "motion": "on"})
    data = json.loads(client.get(reverse("account_data", args=["ann"])).content)
    assert data["table_preferences"] == {"sound": True, "motion": True}
    account_delete(user_id=ann.pk)
    assert not TablePreferences.objects.filter(user=ann).exists()
