"""Printed standings are "after round N" for the last round with every result in, not the last round
paired; and a result the director entered reads "entered by the director" on every page."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tournaments import selectors, services
from games.tournaments.models import Tournament
from tests.play.factories import fixed_secrets

from .helpers import active_matches, make_players, make_tournament, refresh
from .test_qualifying import enter_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "standings-label")


def title(t: Tournament) -> str:
    page = Client().get(reverse("tournaments:print_standings", args=[t.pk])).content.decode()
    return re.search(r'<h1 id="standings-title">(.*?)</h1>', page).group(1)


def test_standings_are_after_the_last_round_with_every_result_in() -> None:
    t = make_tournament(make_players(6), format=Tournament.Format.ACC, qualifying_games=3, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    assert (selectors.rounds_complete(t), title(t)) == (0, "Qualifying standings")  # before any result
    enter_round(t, random.Random(1))
    assert (selectors.rounds_complete(t), title(t)) == (1, "Qualifying standings after round 1")
    services.tournament_advance(tournament_id=t.pk)
    assert refresh(t).current_round == 2  # round 2 paired, none of its results in
    assert (selectors.rounds_complete(t), title(t)) == (1, "Qualifying standings after round 1")
    enter_round(t, random.Random(2))
    assert (selectors.rounds_complete(t), title(t)) == (2, "Qualifying standings after round 2")


def test_a_round_with_one_result_still_to_come_does_not_count() -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    m = active_matches(t)[0]
    services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="played on the club's boards")
    assert selectors.rounds_complete(t) == 0 and title(t) == "Standings"


def test_the_tournament_page_says_entered_by_the_director() -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant2_id, reason="p1 did not show up")
    page = Client().get(t.get_absolute_url()).content.decode()
    assert "p2 wins 1–0 (entered by the director)" in page
    assert "organiser" not in page.split("<main", 1)[1].lower()
