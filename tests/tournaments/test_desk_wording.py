"""The desk's words: plurals, one sentence end, one name for a round everywhere, the log in the
order things happened, and a start that asks first."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client

from games.tournaments import desk_steps, notice_words, services
from games.tournaments.models import Match, Notice, Tournament
from games.tournaments.services.entered_results import Entry
from tests.play.factories import fixed_secrets

from .helpers import active_matches, make_players, make_tournament, refresh
from .test_desk import text, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "wording")


@pytest.fixture
def staff():
    return get_user_model().objects.create_superuser("td", email="td@example.com", password=None)


@pytest.fixture
def client(staff) -> Client:
    c = Client()
    c.force_login(staff)
    return c


@pytest.mark.parametrize(("n", "word", "said"), [
    (1, "bracket match", "1 bracket match"), (2, "bracket match", "2 bracket matches"),
    (3, "match", "3 matches"), (2, "player", "2 players"), (0, "game", "0 games"), (2, "bye", "2 byes"),
])
def test_plurals(n, word, said):
    assert desk_steps._plural(n, word) == said


def test_start_with_too_few_players_ends_each_sentence_once():
    t = make_tournament(make_players(1), format=Tournament.Format.KNOCKOUT)
    step = desk_steps.start_step(t)
    assert step.what == ("Closes the entry list at 1 player, numbers the seeds (the seeds you set, then by "
                         "rating where the site has ratings, then in registration order).")
    assert ". ." not in step.what and ".." not in step.what and not step.enabled


@pytest.mark.parametrize("fmt", [Tournament.Format.ROUND_ROBIN, Tournament.Format.KNOCKOUT,
                                 Tournament.Format.QUALIFYING, Tournament.Format.ACC])
def test_start_text_reads_as_sentences(fmt):
    t = make_tournament(make_players(5), format=fmt, qualifying_games=3)
    what = desk_steps.start_step(t).what
    assert ". ." not in what and ".." not in what and what.endswith(".")


def test_a_round_has_one_name():
    rr = Tournament(format=Tournament.Format.ROUND_ROBIN, stage="rr", current_round=2)
    ko = Tournament(format=Tournament.Format.KNOCKOUT, stage="ko", current_round=2)
    combined = Tournament(format=Tournament.Format.QUALIFYING, stage="ko", current_round=2)
    acc = Tournament(format=Tournament.Format.ACC, stage="q", current_round=3, qualifying_games=9)
    assert rr.round_name("rr", 2) == "Round 2" and rr.stage_text(0) == "round 2"
    assert ko.round_name("ko", 2, 3) == "Semi-finals" and ko.stage_text(3) == "semi-finals"
    assert combined.round_name("ko", 2, 3) == "Playoff semi-finals"
    assert combined.stage_text(3) == "playoff semi-finals"
    assert acc.round_name("q", 3) == "Qualifying round 3 of 9"
    assert acc.stage_text(0) == "qualifying round 3 of 9"


def _finish_round(t: Tournament) -> None:
    """The director enters every active match of the current round: the first player wins."""
    entries = [Entry(m.pk, m.entrant1_id) for m in active_matches(refresh(t)) if m.stage == refresh(t).stage]
    services.round_set_results(tournament_id=t.pk, entries=entries, reason="")


def test_the_flash_names_the_round_as_the_desk_does(client):
    t = make_tournament(make_players(4), format=Tournament.Format.QUALIFYING, qualifiers=4,
                        auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    for _ in range(2):
        _finish_round(t)
        services.tournament_advance(tournament_id=t.pk)
    _finish_round(t)  # the last round: the playoff is drawn, its matches wait for the director
    assert refresh(t).stage == Tournament.Stage.KNOCKOUT and not active_matches(t)
    response = client.post(url("step", t), {"step": "advance"}, follow=True)
    flashes = [str(m) for m in get_messages(response.wsgi_request)]
    assert len(active_matches(t)) == 2
    assert flashes == ["Moved on: playoff semi-finals."]
    page = text(response)
    assert "Running : playoff semi-finals" in page and "Results: Playoff semi-finals" in page


def test_results_come_before_what_they_cause_in_the_log():
    t = make_tournament(make_players(4), format=Tournament.Format.ACC, qualifying_games=1, qualifiers=2)
    services.tournament_start(tournament_id=t.pk)
    _finish_round(t)
    t = refresh(t)
    assert t.stage == Tournament.Stage.KNOCKOUT
    logged = t.notices.exclude(kind=Notice.Kind.ANNOUNCEMENT)
    log = [n.words for n in notice_words.in_words(logged)]  # newest first
    entered = next(i for i, line in enumerate(log) if "entered 2 results" in line)
    over = next(i for i, line in enumerate(log) if line.startswith("Qualifying is over"))
    assert over < entered  # "Qualifying is over" is newer: it came of the results


def test_start_asks_to_confirm(client):
    t = make_tournament(make_players(4), format=Tournament.Format.ROUND_ROBIN)
    page = text(client.get(url("", t)))
    assert "Yes: start the tournament now. This cannot be undone." in page
    response = client.post(url("step", t), {"step": "start"})
    assert response.status_code == 400 and "Tick the box to confirm" in text(response)
    assert refresh(t).status == Tournament.Status.UPCOMING and not Match.objects.filter(tournament=t).exists()
    response = client.post(url("step", t), {"step": "start", "confirmed": "on"})
    assert response.status_code == 302 and refresh(t).status == Tournament.Status.RUNNING


def test_game_scores_read_the_winners_first():
    m = Match(game_scores="121-80, 90-121, 55-121", entrant1_id=1, entrant2_id=2, winner_id=2)
    assert m.winner_game_scores_text() == "80–121, 121–90, 121–55"
    m.winner_id = 1
    assert m.winner_game_scores_text() == "121–80, 90–121, 55–121"


def test_the_list_and_the_admin_name_a_round_the_same_way(client):
    t = make_tournament(make_players(4), format=Tournament.Format.KNOCKOUT, name="Ko Cup")
    services.tournament_start(tournament_id=t.pk)
    m = active_matches(t)[0]
    assert str(m) == f"Ko Cup Semi-finals: {m.label}"
    assert "Single elimination · 4 players · semi-finals" in text(client.get("/tournaments/"))
    page = text(client.get(f"/admin/tournaments/match/{m.pk}/change/"))
    assert f"Ko Cup Semi-finals: {m.label}" in page  # the page's title and breadcrumbs


def test_one_result_comes_before_what_it_causes_in_the_log():
    t = make_tournament(make_players(2), format=Tournament.Format.ACC, qualifying_games=1, qualifiers=2)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="Played on the club's boards")
    logged = refresh(t).notices.exclude(kind=Notice.Kind.ANNOUNCEMENT)
    log = [n.words for n in notice_words.in_words(logged)]  # newest first
    result = next(i for i, line in enumerate(log) if line.startswith("Result entered by the director"))
    caused = [i for i, line in enumerate(log) if line.startswith(("Qualifying is over", "The tournament"))]
    assert caused and all(i < result for i in caused if "has started" not in log[i])
