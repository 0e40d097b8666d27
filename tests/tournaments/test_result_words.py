"""How a tournament game's end reads for its players: a result entered by the director or a forfeit is
not shown as the resignation it is made by; the game record says it was a tournament game; every
"X wins a–b" puts the winner's score first; a cancelled tournament's open game says it no longer
counts; the tournament page's facts stay true once it has started."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.play import services as game_services
from games.play.models import Game
from games.tournaments import notice_words, services
from games.tournaments.models import Match, Tournament
from tests.play.factories import fixed_secrets, logged_in

from .helpers import active_matches, make_players, make_tournament, refresh

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "tournament-words")


def _page(user, url: str) -> str:
    response = logged_in(user).get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _result_section(page: str) -> str:
    return page.split('<section class="result"', 1)[1].split("</section>", 1)[0]


def _one_match(**fields) -> tuple[Tournament, Match]:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN, **fields)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    return t, m


def test_a_result_entered_by_the_director_reads_as_such_on_the_board_and_the_record() -> None:
    t, m = _one_match(name="Club Cup")
    services.match_set_result(match_id=m.pk, winner_id=m.entrant2_id, reason="p1 did not show up")
    board = _page(m.entrant1.user, reverse("game", args=[m.game_id]))
    result = _result_section(board)
    assert "p2 wins (entered by the director)" in result and "resignation" not in result
    assert "No game's score was entered." in result
    assert "Result entered by the director: p1 did not show up." in result
    assert "resigns" not in board and "by resignation" not in board  # nor in the log
    assert reverse("rematch", args=[m.game_id]) not in board  # no rematch of a tournament game
    assert t.get_absolute_url() in result

    record = _page(m.entrant1.user, reverse("game_record", args=[m.game_id]))
    assert "Online, casual" not in record and "by resignation" not in record
    assert f'Tournament game: <a href="{t.get_absolute_url()}">Club Cup</a>' in record
    assert "p2</strong> won (entered by the director)" in record
    assert "Result entered by the director: p1 did not show up." in record


def test_a_forfeit_reads_as_a_forfeit() -> None:
    t, m = _one_match(forfeit_minutes=5)
    present, absent = m.entrant1, m.entrant2
    game = Game.objects.get(pk=m.game_id)
    game_services.game_act(user=present.user, game_id=game.pk, version=game.version,
                           action={"type": "cut_for_deal", "position": 3})
    later = timezone.now() + timedelta(minutes=6)
    services.match_claim_forfeit(user=present.user, match_id=m.pk, now=later)
    result = _result_section(_page(present.user, reverse("game", args=[m.game_id])))
    assert "You win by forfeit" in result and "resignation" not in result
    assert f"Forfeit: {absent.name} made no move within 5 minutes" in result
    watch = html.unescape(Client().get(reverse("tournaments:watch", args=[t.pk, m.pk])).content.decode())
    assert "p1 wins by forfeit" in watch and "resignation" not in watch
    replay = _page(absent.user, reverse("game_replay", args=[m.game_id]) + "?step=99")
    assert "p1 wins by forfeit." in replay and "Forfeit: p2 made no move" in replay


def test_a_players_own_resignation_still_reads_as_one() -> None:
    t, m = _one_match()
    game = Game.objects.get(pk=m.game_id)
    game_services.game_act(user=m.entrant2.user, game_id=game.pk, version=game.version,
                           action={"type": "resign"})
    result = _result_section(_page(m.entrant1.user, reverse("game", args=[m.game_id])))
    assert "You win by resignation" in result and "organiser" not in result


def test_every_wins_line_puts_the_winners_score_first() -> None:
    t, m = _one_match()
    services.match_set_result(match_id=m.pk, winner_id=m.entrant2_id, reason="p1 left")
    (notice,) = notice_words.in_words(t.notices.filter(kind="result"))
    assert "p2 wins 1–0" in notice.words, notice.words
    page = html.unescape(Client().get(t.get_absolute_url()).content.decode())
    notices = page.split('id="notices-h"', 1)[1].split("</section>", 1)[0]
    schedule = page.split('id="schedule-h"', 1)[1].split("</section>", 1)[0]
    assert "p2 wins 1–0" in notices and "0–1" not in notices
    assert "p2 wins 1–0" in schedule and "0–1" not in schedule
    assert "points 2–0" in schedule  # the qualifying points, the winner's first too


def test_the_admin_result_message_puts_the_winners_score_first() -> None:
    t, m = _one_match()
    staff = get_user_model().objects.create_superuser("td", email="td@example.com", password=None)
    client = Client()
    client.force_login(staff)
    response = client.post(
        reverse("admin:tournaments_match_result", args=[m.pk]),
        {"winner": m.entrant2_id, "reason": "p1 left"},
        follow=True,
    )
    messages = [str(x) for x in response.context["messages"]]
    assert any("p2 wins 1–0 (points 2–0, spread +0)" in x for x in messages), messages


def test_a_cancelled_tournaments_open_game_says_it_no_longer_counts() -> None:
    t, m = _one_match(name="Club Cup")
    services.tournament_cancel(tournament_id=t.pk, reason="The hall is closed")
    board = _page(m.entrant1.user, reverse("game", args=[m.game_id]))
    assert "The tournament Club Cup was cancelled: this game no longer counts." in board
    # Played out afterwards, its result says so too, and still offers no rematch.
    game = Game.objects.get(pk=m.game_id)
    game_services.game_act(user=m.entrant2.user, game_id=game.pk, version=game.version,
                           action={"type": "resign"})
    result = _result_section(_page(m.entrant1.user, reverse("game", args=[m.game_id])))
    assert "no longer counts" in result and reverse("rematch", args=[m.game_id]) not in result


def test_a_game_outside_any_tournament_says_nothing_of_one(alice, bob) -> None:
    game = game_services.game_create_between(players=[alice, bob], rules=Tournament().rules_for(1))
    assert "organiser-notice" not in _page(alice, reverse("game", args=[game.pk]))
    game_services.game_act(user=bob, game_id=game.pk, version=game.version, action={"type": "resign"})
    result = _result_section(_page(alice, reverse("game", args=[game.pk])))
    assert "You win by resignation" in result and reverse("rematch", args=[game.pk]) in result
    assert "result__note" not in result


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("upcoming", "until the start"),
        ("running", "closed at the start"),
        ("finished", "closed at the start"),
        ("cancelled", "closed at the start"),
    ],
)
def test_the_registration_fact_is_true_for_every_status(status: str, expected: str) -> None:
    t = make_tournament(make_players(2))
    if status != "upcoming":
        services.tournament_start(tournament_id=t.pk)
    if status == "finished":
        (m,) = active_matches(t)
        services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="walkover")
    elif status == "cancelled":
        services.tournament_cancel(tournament_id=t.pk)
    assert refresh(t).status == status
    page = Client().get(t.get_absolute_url()).content.decode()
    fact = page.split("<dt>Registration</dt>", 1)[1].split("</dd>", 1)[0]
    assert expected in fact
    assert ("until the start" in fact) == (status == "upcoming")


def test_a_tournament_cancelled_before_its_start_says_registration_is_closed() -> None:
    t = make_tournament(make_players(2), registration_closes=timezone.now() + timedelta(days=2))
    services.tournament_cancel(tournament_id=t.pk)
    page = Client().get(t.get_absolute_url()).content.decode()
    fact = page.split("<dt>Registration</dt>", 1)[1].split("</dd>", 1)[0]
    assert "closed" in fact and "until" not in fact
