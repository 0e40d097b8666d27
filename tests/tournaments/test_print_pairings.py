"""Printed pairings: one number per player on every page, and each round's own start time."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.tournaments import services
from games.tournaments.models import Match, Tournament
from games.tournaments.services.entered_results import Entry
from tests.play.factories import fixed_secrets

from .helpers import active_matches, make_players, make_tournament, refresh

pytestmark = pytest.mark.django_db

SEEDED = re.compile(r"<td>(\w+) <span class=\"seed\">\((\d+)\)</span></td>")


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "print")


def _pages(t: Tournament) -> list[str]:
    html = Client().get(reverse("tournaments:print_pairings", args=[t.pk])).content.decode()
    return html.split('<section class="print-page"')[1:]


def _to_playoff(t: Tournament) -> None:
    services.tournament_start(tournament_id=t.pk)
    # Who wins decides the qualifying order: the lower seeds win, so playoff ranks differ from seeds.
    entries = [Entry(m.pk, m.entrant2_id) for m in active_matches(t)]
    services.round_set_results(tournament_id=t.pk, entries=entries, reason="")
    assert refresh(t).stage == Tournament.Stage.KNOCKOUT


def test_a_player_keeps_one_number_on_every_page_and_no_two_share_one():
    t = make_tournament(make_players(4), format=Tournament.Format.ACC, qualifying_games=1, qualifiers=4)
    _to_playoff(t)
    assert any(e.qualifying_rank != e.seed for e in t.entrants.all())  # the mix the sheet once showed
    numbers: dict[str, set[str]] = {}
    pages = _pages(t)
    assert len(pages) == 3  # the qualifying round, the semi-finals, the final still to be decided
    for page in pages:
        for row in re.findall(r"<tr>.*?</tr>", page, re.S):
            seeds = SEEDED.findall(row)
            if len(seeds) == 2:
                assert seeds[0][1] != seeds[1][1], row  # two players at one table, two numbers
            for name, number in seeds:
                numbers.setdefault(name, set()).add(number)
    seeds = {e.name: str(e.seed) for e in t.entrants.all()}
    assert numbers == {name: {number} for name, number in seeds.items()}
    assert "seed at entry, the same on every page" in pages[0]


def test_each_round_says_when_it_started():
    t = make_tournament(make_players(4), format=Tournament.Format.ACC, qualifying_games=1, qualifiers=4,
                        auto_advance=False)
    _to_playoff(t)
    first = datetime(2026, 5, 2, 14, 0, tzinfo=UTC)
    Match.objects.filter(tournament=t, stage=Tournament.Stage.QUALIFYING).update(started_at=first)
    qualifying, playoff, _final = _pages(t)
    assert "This round started Saturday 2 May 2026, 14:00" in qualifying
    assert "This round has not started" in playoff
    services.tournament_advance(tournament_id=t.pk)  # the director pairs the playoff later
    later = first + timedelta(hours=2, minutes=5)
    Match.objects.filter(tournament=t, stage=Tournament.Stage.KNOCKOUT, round_no=1).update(started_at=later)
    qualifying, playoff, _final = _pages(t)
    assert "This round started Saturday 2 May 2026, 16:05" in playoff
    assert "14:00" in qualifying and "14:00" not in playoff
