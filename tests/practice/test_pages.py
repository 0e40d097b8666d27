"""The trainer's page: a right and a wrong count, the record kept for a visitor in the session and
for a player in their row, a visitor's record joining the account at sign-up and log-in, and a
count for any hand but the one the server dealt refused with a message and a 4xx."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.practice.levels import deal
from games.practice.models import CountingRecord
from games.practice.trainer import KEY
from tests.play.factories import make_user

pytestmark = pytest.mark.django_db

URL = "/practice/counting/"
PASSWORD = "a-Long-pass-phrase-42"
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "trainer"}


def _waiting(client: Client):
    """The hand the server is waiting for, from the session (the page never sends its worth)."""
    state = client.session[KEY]
    return state["number"], deal(state["seed"], state["number"], state["level"])


def _count(client: Client, right: bool = True, **extra):
    client.get(URL)
    number, dealt = _waiting(client)
    total = dealt.score.total
    points = total if right else (total + 1 if total < 29 else total - 1)
    return client.post(URL, {"hand": number, "points": points}, **extra)


def test_the_page_deals_a_hand_that_a_reload_keeps(client):
    first = client.get(URL)
    assert first.status_code == 200
    html = first.content.decode()
    number, dealt = _waiting(client)
    assert number == 1 and "Level 1 of 5" in html
    assert ("What is the crib worth?" if dealt.crib else "What is this hand worth?") in html
    for card in (*dealt.hand, dealt.starter):
        assert card.name in html
    assert 'name="points"' in html and 'inputmode="numeric"' in html
    assert "show-total" not in html and "is worth" not in html  # the answer stays on the server
    assert client.get(URL).content.decode().count(dealt.starter.name) == html.count(dealt.starter.name)
    assert _waiting(client) == (number, dealt)


def test_a_right_count_shows_the_breakdown_and_adds_to_the_streak(client):
    client.get(URL)
    number, dealt = _waiting(client)
    response = client.post(URL, {"hand": number, "points": dealt.score.total})
    assert response.status_code == 303 and response["Location"] == f"{URL}?counted=1"
    html = client.get(response["Location"]).content.decode()
    assert f"is worth {dealt.score.total}" in html and "Right" in html
    for group in dealt.score.groups:
        assert group.text in html
    assert f"Counted {dealt.score.total}: right" in html
    assert 'data-testid="trainer-streak">1<' in html and "1</strong> of 1 right (100%)" in html
    # The next hand is waiting; the counted one is not counted twice.
    assert _waiting(client)[0] == 2
    again = client.post(URL, {"hand": number, "points": dealt.score.total})
    assert again.status_code == 409 and "not for the hand waiting here" in again.content.decode()
    assert client.session[KEY]["visitor"]["counted"] == 1


def test_a_wrong_count_says_what_was_missed_and_ends_the_streak(client):
    _count(client)
    client.get(URL)
    number, dealt = _waiting(client)
    total = dealt.score.total
    response = client.post(URL, {"hand": number, "points": total - 2 if total >= 2 else total + 3}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="trainer"')  # the trainer alone, swapped in place
    if total >= 2:
        assert "Not quite" in html and f"Worth {total}, counted {total - 2}: 2 missed" in html
        assert "You missed 2 points." in html
    else:
        assert "Too many" in html and "3 too many" in html
    assert 'data-testid="trainer-streak">0<' in html and "1</strong> of 2 right (50%)" in html
    assert "Next hand" in html


def test_a_players_record_is_kept_on_their_account_and_sets_the_level(client):
    user = make_user("counter")
    client.force_login(user)
    levels = []
    for right in (True, True, True, False, True):
        html = _count(client, right, **HTMX).content.decode()
        levels.append(client.session[KEY]["level"])
        if len(levels) == 3:  # three right in a row: the next hand a level up, and the page says so
            assert "Up a level!" in html and "level 2, <strong>Runs" in html
        if len(levels) == 4:
            assert "Back to level 1 for now." in html
    assert levels == [1, 1, 2, 1, 1]
    assert CountingRecord.objects.get(user=user).level == 1
    assert "Level 1 of 5" in client.get(URL).content.decode()
    record = CountingRecord.objects.get(user=user)
    assert (record.counted, record.right, record.streak, record.best_streak) == (5, 4, 1, 3)
    assert client.session[KEY]["visitor"] is None or "visitor" not in client.session[KEY]
    html = client.get(URL).content.decode()
    assert "4</strong> of 5 right (80%)" in html and "Kept in this browser" not in html


@pytest.mark.parametrize(("hand", "points", "status", "words"), [
    ("2", "6", 409, "not for the hand waiting here"),       # a hand not dealt yet
    ("0", "6", 409, "not for the hand waiting here"),
    ("x", "6", 409, "not for the hand waiting here"),
    ("1", "30", 400, "from 0 to 29"),
    ("1", "-1", 400, "from 0 to 29"),
    ("1", "six", 400, "from 0 to 29"),
    ("1", "", 400, "from 0 to 29"),
])
def test_a_forged_or_malformed_count_is_refused_and_changes_nothing(client, hand, points, status, words):
    client.get(URL)
    before = dict(client.session[KEY])
    response = client.post(URL, {"hand": hand, "points": points}, **HTMX)
    assert response.status_code == status
    html = response.content.decode()
    assert words in html and 'role="alert"' in html and 'name="points"' in html
    assert dict(client.session[KEY]) == before


def test_signing_up_keeps_the_visitors_record():
    visitor = Client()
    for right in (True, True, False, True):
        _count(visitor, right)
    response = visitor.post("/accounts/signup/", {"username": "newbie", "password1": PASSWORD,
                                                  "password2": PASSWORD})
    assert response.status_code == 302
    record = CountingRecord.objects.get(user__username="newbie")
    assert (record.counted, record.right, record.streak, record.best_streak) == (4, 3, 1, 2)
    assert not visitor.session[KEY].get("visitor")
    _count(visitor)
    record.refresh_from_db()
    assert (record.counted, record.right, record.streak) == (5, 4, 2)


def test_logging_in_adds_the_visitors_record_to_the_accounts():
    user = get_user_model().objects.create_user("carol", password=PASSWORD)
    CountingRecord.objects.create(user=user, counted=10, right=9, streak=4, best_streak=6, level=3)
    visitor = Client()
    for _ in range(3):
        _count(visitor)
    number = visitor.session[KEY]["number"]
    assert visitor.post("/accounts/login/", {"username": "carol", "password": PASSWORD}).status_code == 302
    record = CountingRecord.objects.get(user=user)
    # The visitor's three right carry the account's streak of four on to seven.
    assert (record.counted, record.right, record.streak, record.best_streak) == (13, 12, 7, 7)
    assert record.level == 3
    assert visitor.session[KEY]["number"] == number  # the hand on the table stays
    _count(visitor)
    assert visitor.session[KEY]["level"] == 3  # the next is dealt at the account's level
    html = visitor.get(URL).content.decode()
    assert "13</strong> of 14 right (93%)" in html


def test_the_record_is_in_the_players_data_download_and_the_menu_and_rules_lead_here(client):
    user = make_user("dora")
    client.force_login(user)
    assert client.get("/accounts/u/dora/data.json").json()["counting_practice"] is None
    _count(client)
    data = client.get("/accounts/u/dora/data.json").json()["counting_practice"]
    assert {k: data[k] for k in ("counted", "right", "streak", "best_streak")} == {
        "counted": 1, "right": 1, "streak": 1, "best_streak": 1}
    assert f'href="{URL}"' in client.get("/rules/").content.decode()
    assert f'href="{URL}"' in client.get("/").content.decode()
