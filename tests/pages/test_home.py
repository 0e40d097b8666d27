"""The home page: each part there for a visitor and for a player, and one-click play with the
strength and house rules the player chose last time."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from games.puzzles import clock as puzzle_clock
from tests.play.factories import computer_game, fixed_secrets, human_game, logged_in, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    fixed_secrets(monkeypatch, "home")
    # Midday: today's puzzle is out (in a day's first moments the section links its page instead).
    monkeypatch.setattr(puzzle_clock, "now", lambda: datetime(2026, 3, 10, 12, tzinfo=UTC))
    cache.clear()  # the shared list and boards are kept by stamp: each test starts without


def _form_fields(page: str) -> dict[str, str]:
    """The one-click form's fields as the browser posts them (the strength as checked)."""
    form = re.search(r'<form class="quick-play".*?</form>', page, re.S).group(0)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    fields["cpu-level"] = re.search(r'name="cpu-level" value="(\w+)" id="[^"]+" checked', form).group(1)
    return fields


def test_a_visitor_sees_every_part_with_signing_up_in_place_of_their_games():
    alice, bob = make_user("alice"), make_user("bob")
    game = human_game(alice, bob)
    page = html.unescape(Client().get("/").content.decode())
    for part in ('id="play-h"', 'id="mine-h"', 'id="puzzle-h"', 'id="live-h"'):
        assert part in page
    assert "Sign up free" in page and "Log in" in page and "Your turn" not in page
    assert '<form class="quick-play"' not in page  # a visitor's play buttons lead to signing up
    assert page.count('class="puzzle-card') == 0 and page.count('aria-label="The six cards"') == 1
    assert f'data-socket="/ws/watch/{game.pk}/"' in page and "board-page--watch" in page
    assert "alice v bob" in page


def test_a_player_sees_their_games_waiting_and_plays_the_computer_in_one_click():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    human_game(alice, bob)
    other = human_game(carol, make_user("dave"))
    seek = services.game_create_seek(user=bob, rules=HouseRules(), invited=alice, days_per_move=2)
    own_pace = services.game_accept(user=alice, game_id=seek.pk)
    client = logged_in(alice)
    page = html.unescape(client.get("/").content.decode())
    assert "Live against bob" in page and "Sign up free" not in page
    assert f'href="/games/{own_pace.pk}/"' in page and "Your turn against bob" in page
    # The game shown being played is someone else's, not the reader's own.
    assert f'data-socket="/ws/watch/{other.pk}/"' in page
    fields = _form_fields(page)
    assert fields["cpu-level"] == "standard" and fields["cpu-target"] == "121"
    response = client.post("/games/new/computer/", fields)
    game = Game.objects.get(vs_computer=True)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.computer_level, game.target, game.skunks, game.pone_cuts) == ("standard", 121, True, True)


def test_the_last_strength_and_house_rules_are_remembered_and_changed_in_one_tap():
    alice = make_user("alice")
    client = logged_in(alice)
    client.post("/games/new/computer/", {"cpu-level": "expert", "cpu-target": "61", "cpu-skunks": "on",
                                         "cpu-peg_out_zone": "5", "cpu-match_games": "3",
                                         "cpu-private": "on"})
    first = Game.objects.get()
    assert (first.computer_level, first.target, first.peg_out_zone, first.private) == ("expert", 61, 5, True)
    page = html.unescape(client.get("/").content.decode())
    assert "61 points, last five holes, best of 3, private" in page
    fields = _form_fields(page)
    assert fields["cpu-level"] == "expert" and fields["cpu-target"] == "61" and "cpu-pone_cuts" not in fields
    # The lobby's full form starts the same way.
    lobby = client.get("/lobby/").content.decode()
    assert re.search(r'<option value="expert" selected>', lobby)
    target = r'name="cpu-target"[^>]*>\s*<option value="121">[^<]*</option>\s*<option value="61" selected'
    assert re.search(target, lobby)
    # One tap on another strength: the same rules, the new strength, remembered in turn.
    client.post("/games/new/computer/", {**fields, "cpu-level": "easy"})
    second = Game.objects.exclude(pk=first.pk).get()
    assert (second.computer_level, second.target, second.match_games, second.private) == ("easy", 61, 3, True)
    assert _form_fields(client.get("/").content.decode())["cpu-level"] == "easy"
    # What is kept is the player's own data, in their download.
    kept = client.get(reverse("account_data", args=["alice"])).json()["last_game_against_the_computer"]
    assert kept["level"] == "easy" and kept["rules"]["target"] == 61 and kept["rules"]["private"] is True


def test_a_bad_one_click_post_is_refused_with_the_lobby_s_form_and_changes_nothing():
    alice = make_user("alice")
    response = logged_in(alice).post("/games/new/computer/",
                                     {"cpu-level": "grandmaster", "cpu-target": "121"})
    assert response.status_code == 400 and not Game.objects.exists()
    assert "Select a valid choice" in response.content.decode()


def test_a_private_game_is_never_the_one_shown_being_played():
    alice, bob = make_user("alice"), make_user("bob")
    seek = services.game_create_seek(user=alice, rules=HouseRules(), private=True)
    services.game_accept(user=bob, game_id=seek.pk)
    page = Client().get("/").content.decode()
    assert "/ws/watch/" not in page and "No game is being played just now" in page
    computer_game(make_user("carol"))
    cache.clear()
    assert "carol v Computer (easy)" in html.unescape(Client().get("/").content.decode())


def test_the_next_game_shown_is_asked_for_as_the_section_alone():
    game = human_game(make_user("alice"), make_user("bob"))
    section = Client().get("/?live=next", headers={"HX-Request": "true"}).content.decode().strip()
    assert section.startswith('<section class="front-panel front-live" id="front-live"')
    assert section.endswith("</section>") and f'data-socket="/ws/watch/{game.pk}/"' in section


def test_in_a_day_s_first_moments_the_puzzle_section_links_its_page(monkeypatch):
    monkeypatch.setattr(puzzle_clock, "now", lambda: datetime(2026, 3, 11, 0, 0, 5, tzinfo=UTC))
    page = Client().get("/").content.decode()
    assert 'aria-label="The six cards"' not in page
    assert '<a href="/puzzles/">Today' in page
