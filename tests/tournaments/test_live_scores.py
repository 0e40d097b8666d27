"""The score of each match in play on the tournament page, and its push once a deal (not once a move)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games.engine.rules import HouseRules
from games.play import services as game_services
from games.play.models import Game
from games.tournaments import services
from tests.play.factories import fixed_secrets, make_user, play_out

from .helpers import active_matches, make_players, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "tournament-live")


@pytest.fixture
def pushes(monkeypatch) -> list[int]:
    asked: list[int] = []
    from games.tournaments.services import common, listeners

    for module in (common, listeners):  # every change to a tournament, and every deal of its games
        monkeypatch.setattr(module, "tournament_changed_on_commit", asked.append)
    return asked


def _running(match_games: int = 1):
    t = make_tournament(make_players(2), format="rr", match_games=match_games)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    return t, m


def _play_until(m, stop, seed: int = 5) -> Game:
    game = Game.objects.get(pk=m.game_id)
    play_out(game, {0: m.entrant1.user, 1: m.entrant2.user}, random.Random(seed), stop=stop)
    game.refresh_from_db()
    return game


def _schedule_line(t) -> str:
    page = Client().get(t.get_absolute_url()).content.decode()
    (line,) = re.findall(r'<li class="t-match t-match--active">(.*?)</li>', page, re.S)
    return " ".join(line.split())


def test_a_match_in_play_shows_its_score_and_deal() -> None:
    t, m = _running()
    assert "in play, <span class=\"t-live-score\">cutting for deal</span>" in _schedule_line(t)
    game = _play_until(m, lambda s: s.deal_no == 2 and s.phase == "play")
    a, b = game.state["scores"]
    assert a + b > 0
    line = _schedule_line(t)
    assert f"in play, <span class=\"t-live-score\">{a}–{b}, deal 3</span>" in line
    assert line.index("p1") < line.index("p2")  # entrant 1's score first, as the names read


def test_a_longer_match_shows_the_game_and_the_games_won() -> None:
    t, m = _running(match_games=3)
    # A skunk counts two games (RULES.md), so seed 5's first game ends this match: seed 1's does not.
    game = _play_until(m, lambda s: s.game_no == 1 and s.deal_no == 0 and s.phase == "discard", seed=1)
    first = game.state["results"][0]["winner"]
    won = "1–0" if first == 0 else "0–1"
    a, b = game.state["scores"]
    assert f"game 2: {a}–{b}, deal 1; games {won}" in _schedule_line(t)


def test_the_bracket_shows_the_points_of_a_match_in_play() -> None:
    t = make_tournament(make_players(4), format="ko")
    services.tournament_start(tournament_id=t.pk)
    first, second = active_matches(t)
    game = _play_until(first, lambda s: s.deal_no == 1 and s.phase == "play")
    a, b = game.state["scores"]
    page = Client().get(t.get_absolute_url()).content.decode()
    live = re.findall(r'class="score live">(\d+)</text>', page)
    assert live == [str(a), str(b), "0", "0"]  # each player's line in each box, the boxes in order
    assert "score live" not in page.split('id="schedule-h"')[1]  # the schedule says it in words


def test_the_page_is_pushed_once_a_deal_not_once_a_move(pushes) -> None:
    t, m = _running()
    pushes.clear()  # registering and starting push the page too
    _play_until(m, lambda s: s.phase == "play")  # the cut dealt the first hand
    assert pushes == [t.pk]
    pushes.clear()
    _play_until(m, lambda s: s.phase == "show")
    assert pushes == []  # every card of the play: no push
    _play_until(m, lambda s: s.deal_no == 1)
    assert pushes == [t.pk]


def test_a_game_outside_any_tournament_pushes_no_tournament(pushes) -> None:
    players = [make_user("x1"), make_user("x2")]
    game = game_services.game_create_between(players=players, rules=HouseRules())
    play_out(game, {0: players[0], 1: players[1]}, random.Random(2), stop=lambda s: s.deal_no == 2)
    assert pushes == []
