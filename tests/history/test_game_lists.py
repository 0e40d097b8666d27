"""The game lists: a player's finished games, newest first, with their filters (a bad one marked and
left out), sorting and pages; what others may see of them; and the profile's links and recent games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine.rules import HouseRules
from games.history.models import PlayerGame
from games.play.models import Game
from tests.history.helpers import resign_after, resign_vs_computer
from tests.play.factories import make_user

pytestmark = pytest.mark.django_db


def _rows_shown(html: str) -> list[int]:
    import re

    return [int(n) for n in re.findall(r'data-game="(\d+)"', html)]


# --- the list ---------------------------------------------------------------------------------------


@pytest.fixture
def history(alice, bob, carol):
    """Alice resigns to the computer (61) and to bob (121); bob (61, rated) and carol (61, no skunks)
    resign to her part way through."""
    games = {
        "computer": resign_vs_computer(alice, 6, rules=HouseRules(target=61)),
        "bob": resign_after(alice, bob, 16, resigner=1, rated=True, rules=HouseRules(target=61)),
        "carol": resign_after(carol, alice, 9, resigner=0, rules=HouseRules(target=61, skunks=False)),
        "resigned": resign_after(alice, bob, 0, resigner=0),
    }
    # Spread the finishing dates so the date filters have something to tell apart.
    now = timezone.now()
    for days, key in enumerate(("resigned", "carol", "bob", "computer")):
        PlayerGame.objects.filter(game=games[key]).update(finished_at=now - timedelta(days=10 * days))
    return games


def test_my_games_redirects_to_my_list(alice, client):
    assert client.get("/games/mine/").status_code == 302  # to the login page
    client.force_login(alice)
    response = client.get("/games/mine/?result=win")
    assert response.status_code == 302 and response.url == "/players/alice/games/?result=win"


def test_my_list_shows_everything_newest_first(history, alice, client):
    client.force_login(alice)
    html = client.get("/players/alice/games/").content.decode()
    order = ["resigned", "carol", "bob", "computer"]
    assert _rows_shown(html) == [history[k].pk for k in order]
    assert "Computer (easy)" in html and "4 games" in html
    assert "(resignation)" in html and "no skunks" in html and "Online, rated" in html


def test_a_public_list_shows_only_online_games(history, alice, bob, client):
    client.force_login(bob)
    html = client.get("/players/alice/games/").content.decode()
    assert history["computer"].pk not in _rows_shown(html) and len(_rows_shown(html)) == 3
    assert 'name="kind"' not in html
    client.logout()
    assert len(_rows_shown(client.get("/players/alice/games/?kind=computer").content.decode())) == 3
    assert client.get("/players/nobody/games/").status_code == 404


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("opponent=bob", ["resigned", "bob"]),
        ("opponent=BOB", ["resigned", "bob"]),
        ("opponent=computer", ["computer"]),
        ("kind=online", ["resigned", "carol", "bob"]),
        ("kind=computer", ["computer"]),
        ("result=loss", ["resigned", "computer"]),
        ("result=win", ["carol", "bob"]),
        ("rule=61", ["carol", "bob", "computer"]),
        ("rule=121", ["resigned"]),
        ("rule=rated", ["bob"]),
        ("rule=no_skunks", ["carol"]),
        ("rule=casual", ["resigned", "carol"]),
        ("sort=date", ["computer", "bob", "carol", "resigned"]),
        ("result=bogus", ["resigned", "carol", "bob", "computer"]),  # a bad value is ignored
    ],
)
def test_filters(history, alice, client, query, expected):
    client.force_login(alice)
    html = client.get(f"/players/alice/games/?{query}").content.decode()
    assert _rows_shown(html) == [history[k].pk for k in expected]


def test_date_filters(history, alice, client):
    client.force_login(alice)
    today = timezone.now().date()
    since = (today - timedelta(days=15)).isoformat()
    until = (today - timedelta(days=5)).isoformat()
    html = client.get(f"/players/alice/games/?since={since}&until={until}").content.decode()
    assert _rows_shown(html) == [history["carol"].pk]


def test_sort_by_margin(history, alice, client):
    client.force_login(alice)
    margins = dict(PlayerGame.objects.filter(user=alice).values_list("game_id", "margin"))
    html = client.get("/players/alice/games/?sort=-margin").content.decode()
    shown = _rows_shown(html)
    assert [margins[g] for g in shown] == sorted(margins.values(), reverse=True)
    html = client.get("/players/alice/games/?sort=margin").content.decode()
    assert [margins[g] for g in _rows_shown(html)] == sorted(margins.values())


def test_pagination_keeps_the_filters(alice, bob, client):
    for _ in range(23):
        resign_after(alice, bob, 0, resigner=1)
    client.force_login(alice)
    first = client.get("/players/alice/games/?opponent=bob").content.decode()
    assert len(_rows_shown(first)) == 20 and "Page 1 of 2" in first
    assert "?opponent=bob&amp;page=2" in first
    second = client.get("/players/alice/games/?opponent=bob&page=2").content.decode()
    assert len(_rows_shown(second)) == 3
    assert set(_rows_shown(first)).isdisjoint(_rows_shown(second))
    assert len(_rows_shown(client.get("/players/alice/games/?page=99").content.decode())) == 3


def test_a_bad_filter_is_marked_and_said_to_be_left_out(history, alice, client):
    client.force_login(alice)
    html = client.get("/players/alice/games/?result=zzz&until=2026-13-45").content.decode()
    assert _rows_shown(html) == [history[k].pk for k in ("resigned", "carol", "bob", "computer")]
    assert html.count('class="errorlist"') == 2 and "Enter a valid date." in html
    assert "4 games match the filters that could be used (the ones marked above are left out)." in html
    html = client.get("/players/alice/games/?since=2026-05-02&until=2026-05-01").content.decode()
    assert "This date is before the From date." in html
    html = client.get("/players/alice/games/?kind=computer").content.decode()
    assert "1 game matches these filters." in html and "errorlist" not in html
    html = client.get("/players/alice/games/?since=2030-01-01").content.decode()
    assert "No finished games match these filters." in html and "0 games" not in html  # said once


def test_a_player_with_no_games_yet_is_sent_to_the_lobby(alice, client):
    client.force_login(alice)
    html = client.get("/players/alice/games/").content.decode()
    assert "No finished games yet." in html and 'href="/lobby/">Start one in the lobby' in html
    assert "0 games" not in html


# --- the profile ------------------------------------------------------------------------------------


def test_the_profile_links_to_games_and_statistics(alice, client):
    make_user("dave")
    html = client.get("/accounts/u/dave/").content.decode()
    assert "No finished games yet." in html and "/players/dave/stats/" in html
    assert Game.objects.count() == 0


def test_a_public_profile_lists_recent_online_games_only(alice, bob, client):
    online = resign_after(alice, bob, 0, resigner=1)
    private = resign_vs_computer(alice)
    client.force_login(bob)
    html = client.get("/accounts/u/alice/").content.decode()
    assert f'data-game="{online.pk}"' in html and f'data-game="{private.pk}"' not in html
    client.force_login(alice)
    html = client.get("/accounts/u/alice/").content.decode()
    assert f'data-game="{online.pk}"' in html and f'data-game="{private.pk}"' in html
