"""Players' pages: the list, a tournament's page (entrants, schedule, standings, bracket, the next
match), registering, and claiming a forfeit."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Match, Tournament
from tests.play.factories import fixed_secrets, logged_in

from .helpers import active_matches, make_players, make_tournament, refresh, resign_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "tournament-views")


def test_list_shows_upcoming_running_and_finished() -> None:
    make_tournament(name="Open Soon")
    running = make_tournament(make_players(2), name="Going On", format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=running.pk)
    done = make_tournament(make_players(2, prefix="d"), name="All Over", format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=done.pk)
    (m,) = active_matches(done)
    resign_match(m, m.entrant1)
    page = Client().get(reverse("tournaments:list")).content.decode()
    upcoming, rest = page.split('id="running-h"')
    running_part, finished_part = rest.split('id="finished-h"')
    assert "Open Soon" in upcoming and "Going On" in running_part and "All Over" in finished_part
    assert "Champion: <strong>d1</strong>" in finished_part


def test_register_and_unregister_on_the_page() -> None:
    t = make_tournament(name="Club Night")
    (player,) = make_players(1)
    client = logged_in(player)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Register</button>" in page
    response = client.post(reverse("tournaments:register", args=[t.pk]))
    assert response.status_code == 302
    page = client.get(t.get_absolute_url()).content.decode()
    assert "You are registered" in page and "p1" in page
    client.post(reverse("tournaments:unregister", args=[t.pk]))
    assert not t.entrants.exists()
    anonymous = Client().post(reverse("tournaments:register", args=[t.pk]))
    assert anonymous.status_code == 302 and "login" in anonymous.url
    assert not t.entrants.exists()


def test_full_tournament_refuses_with_a_message() -> None:
    t = make_tournament(make_players(1), max_entrants=1)
    (late,) = make_players(1, prefix="late")
    response = logged_in(late).post(reverse("tournaments:register", args=[t.pk]), follow=True)
    assert "full" in response.content.decode()
    assert t.entrants.count() == 1


def test_knockout_page_draws_the_bracket_and_my_next_match() -> None:
    players = make_players(5)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    m45 = next(m for m in active_matches(t) if m.round_no == 1)
    me = m45.entrant1.user
    page = logged_in(me).get(t.get_absolute_url()).content.decode()
    assert "<svg" in page and 'class="bracket"' in page
    assert "Semi-finals" in page and "Final" in page and "Quarter-finals" in page
    assert page.count('class="bracket__match') == 7
    assert "Your next match" in page
    assert reverse("game", args=[m45.game_id]) in page  # the button that opens the game
    # Somebody else sees no next match and no link into a game that is not theirs.
    other = logged_in(players[0]).get(t.get_absolute_url()).content.decode()
    assert reverse("game", args=[m45.game_id]) not in other
    assert "Standings" not in page


def test_anyone_can_open_the_record_of_a_finished_match() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    first, second = sorted(active_matches(t), key=lambda m: m.slot)
    resign_match(first, first.entrant1)
    record = reverse("game_record", args=[first.game_id])
    stranger = logged_in(make_players(1, prefix="s")[0])
    for client in (stranger, Client()):
        page = client.get(t.get_absolute_url()).content.decode()
        schedule = page.split('class="bracket"', 1)[1]
        assert f'<a href="{record}">Record<span class="visually-hidden"> of ' in schedule
        assert re.search(rf'<a href="{record}" aria-label="The record of semi-finals match 1">', page)
        assert reverse("tournaments:watch", args=[t.pk, second.pk]) in page  # the other is still in play
        assert client.get(record).status_code == 200
    # The winner waits for the other semi-final, named.
    page = logged_in(first.entrant1.user).get(t.get_absolute_url()).content.decode()
    assert f"You play the winner of {second.entrant1.name} v {second.entrant2.name}." in page


def test_round_robin_page_shows_standings_schedule_and_notices() -> None:
    players = make_players(3)
    t = make_tournament(players, format=Tournament.Format.QUALIFYING, qualifiers=2)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    resign_match(m, m.entrant1)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant2_id, reason="Wrong player resigned")
    page = Client().get(t.get_absolute_url()).content.decode()
    assert "Qualifying standings" in page
    assert "Round 1" in page and "has a bye" in page
    assert "Wrong player resigned" in page  # the correction and its reason are public
    assert "The top 2 go on to the playoff." in page


def test_claim_forfeit_from_the_page() -> None:
    players = make_players(2)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN, forfeit_minutes=5)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    present = m.entrant1.user
    game = m.game
    from games.play import services as game_services

    game_services.game_act(
        user=present, game_id=game.pk, version=game.version, action={"type": "cut_for_deal", "position": 0}
    )
    client = logged_in(present)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "you may claim the match by forfeit" in page
    url = reverse("tournaments:claim_forfeit", args=[t.pk, m.pk])
    response = client.post(url, follow=True)
    assert "You can claim the game after" in response.content.decode()
    Match.objects.filter(pk=m.pk).update(started_at=timezone.now() - timedelta(minutes=6))
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Claim the match by forfeit" in page
    client.post(url)
    m.refresh_from_db()
    assert (m.status, m.decided_by, m.winner.user) == ("finished", "forfeit", present)
    assert refresh(game).status == Game.Status.FINISHED
    assert refresh(t).champion == present


def test_page_of_an_unknown_tournament_is_404() -> None:
    assert Client().get(reverse("tournaments:detail", args=[999])).status_code == 404


def test_the_lobby_names_the_tournament_a_game_belongs_to() -> None:
    from games.engine.rules import HouseRules
    from games.play import services as game_services

    t = make_tournament(make_players(2), name="Club Night", format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    players = [m.entrant1.user, m.entrant2.user]
    friendly = game_services.game_create_between(players=players, rules=HouseRules())
    page = logged_in(m.entrant1.user).get(reverse("lobby")).content.decode()
    rows = re.findall(r"<tr>(.*?)</tr>", page.split('id="in-progress-h"')[1], re.S)
    tournament_row = next(r for r in rows if f"/games/{m.game_id}/" in r)
    friendly_row = next(r for r in rows if f"/games/{friendly.pk}/" in r)
    assert f'<a class="chip" href="{t.get_absolute_url()}">Club Night</a>' in tournament_row
    assert "chip" not in friendly_row
