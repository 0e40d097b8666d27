"""A result the director enters (a match played on paper, or corrected) is the result on every screen
that shows the game: both players' boards, the spectators', the lobby, My games, the record, the
replay, the downloads, the statistics and the ratings. Each says the director entered it, and the
statistics drawn from the deals leave the game out and say so."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.history.models import PlayerGame, RatingChange
from games.history.stats import player_stats
from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.play.factories import act, fixed_secrets, logged_in, play_out

from .helpers import active_matches, make_players, make_tournament, play_match

pytestmark = pytest.mark.django_db

MARK = "entered by the director"


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "entered-results")


def _text(response) -> str:
    assert response.status_code == 200, response.status_code
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    return re.sub(r" (?=[.,;)])", "", text)  # a tag closed before a full stop left a space


def _section(page: str, start: str, end: str) -> str:
    return page.split(start, 1)[1].split(end, 1)[0]


def _match(match_games: int = 1, **fields):
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN, match_games=match_games,
                        **fields)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    return t, m


def _pages(m) -> dict[str, str]:
    winner, loser = m.entrant1.user, m.entrant2.user
    game = m.game_id
    mine = logged_in(winner)
    return {
        "board": _text(mine.get(reverse("game", args=[game]))),
        "their board": _text(logged_in(loser).get(reverse("game", args=[game]))),
        "watch": _text(Client().get(reverse("tournaments:watch", args=[m.tournament_id, m.pk]))),
        "lobby": _section(_text(mine.get(reverse("lobby"))), "Recently finished", "Play the computer"),
        "my games": _section(_text(mine.get(reverse("player_games", args=[winner.username]))),
                             "Finished games, page", "Rules as"),
        "record": _text(mine.get(reverse("game_record", args=[game]))),
        "replay": _text(mine.get(reverse("game_replay", args=[game]) + "?step=999")),
        "text": mine.get(reverse("game_export_text", args=[game])).content.decode(),
    }


def test_a_single_game_entered_as_121_97_reads_121_97_everywhere() -> None:
    t, m = _match()
    game = Game.objects.get(pk=m.game_id)
    act(game, m.entrant1.user, {"type": "cut_for_deal", "position": 4})  # some play before the paper
    services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="Played at the club",
                              scores="121-97")
    pages = _pages(m)
    for name, page in pages.items():
        assert "121–97" in page or "121 – p2 97" in page, name
        assert MARK in page, name
        assert "0–0" not in page and "0 – p2 0" not in page and "You 0 – " not in page, name
        assert "resign" not in page.lower(), name
    assert "You win 121–97 (entered by the director)" in pages["board"]
    assert "Final score: You 121 – p2 97." in pages["board"]
    assert "p1 wins 121–97 (entered by the director)" in pages["their board"]
    assert "Final score: p1 121 – You 97." in pages["their board"]
    assert "p1 won (entered by the director); final score p1 121 – p2 97." in pages["record"]
    assert "Won (entered by the director)" in pages["my games"] and "0 deals" not in pages["my games"]
    assert "p1 wins 121–97 (entered by the director)." in pages["replay"]
    assert "p1 won 121–97 (entered by the director)" in pages["text"]
    rows = {row.seat: row for row in PlayerGame.objects.filter(game_id=m.game_id)}
    assert (rows[0].score, rows[0].opponent_score, rows[0].margin, rows[0].result) == (121, 97, 24, "win")
    assert (rows[1].score, rows[1].opponent_score, rows[1].margin, rows[1].result) == (97, 121, -24, "loss")
    assert rows[0].entered and rows[1].entered and not rows[0].resigned


def test_a_best_of_three_entered_as_2_1_without_scores_reads_2_1() -> None:
    t, m = _match(match_games=3)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant2_id, reason="Paper sheet",
                              games1=1, games2=2)
    pages = _pages(m)
    loser_board = pages["board"]  # entrant 1 lost
    assert "Match: You 1 – p2 2. p2 wins the match." in loser_board
    assert "match 1–2" in loser_board and "match 1–0" not in loser_board and "match 0–1" not in loser_board
    assert "No game's score was entered." in loser_board
    assert "p2 wins the match 2–1 (entered by the director)" in loser_board  # the log
    assert "Match: p1 1 – You 2. You win the match." in pages["their board"]
    assert "p2 won the match p1 1 – p2 2 (entered by the director)" in pages["record"]
    assert "Lost (entered by the director) 1–2" in pages["my games"] and "—" in pages["my games"]
    assert "games 1–2" in pages["lobby"]
    assert "p2 wins the match 2–1 (entered by the director)" in pages["replay"]
    for name, page in pages.items():
        assert "1–0" not in page and "0–1" not in page and "0–0" not in page, name
    row = PlayerGame.objects.get(game_id=m.game_id, seat=1)
    assert (row.games_won, row.games_lost, row.result, row.score_line) == (2, 1, "win", "—")


def test_a_best_of_three_with_its_scores_shows_each_game() -> None:
    t, m = _match(match_games=3)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="Paper sheet",
                              scores="121-97, 80-121, 121-60")
    pages = _pages(m)
    record = pages["record"]
    assert "Game 1: p1 won (entered by the director); final score p1 121 – p2 97." in record
    assert "Game 2: p2 won (skunk, entered by the director); final score p1 80 – p2 121." in record
    assert "Game 3: p1 won (double skunk, entered by the director); final score p1 121 – p2 60." in record
    assert "You win 121–60 (double skunk, entered by the director)" in pages["board"]
    assert "Match: You 2 – p2 1." in pages["board"]
    row = PlayerGame.objects.get(game_id=m.game_id, seat=0)
    assert (row.games_won, row.games_lost, row.skunks_given, row.double_skunks_given, row.skunks_taken) == (
        2, 1, 1, 1, 1)


def test_a_correction_of_a_played_game_replaces_its_result_everywhere() -> None:
    t, m = _match()
    play_match(m, seed=3)
    game = Game.objects.get(pk=m.game_id)
    played_winner = game.winner_seat
    loser = (m.entrant2 if played_winner == 0 else m.entrant1)
    scores = "97-121" if played_winner == 0 else "121-97"
    services.match_set_result(match_id=m.pk, winner_id=loser.pk, reason="Miscounted crib", scores=scores)
    game.refresh_from_db()
    assert game.winner_seat == 1 - played_winner
    pages = _pages(m)
    for name in ("board", "their board", "record", "replay", "my games", "lobby"):
        page = pages[name]
        assert MARK in page, name
        assert any(score in page for score in ("121–97", "121 – p2 97", "97 – p2 121", "97 – You 121")), name
    rows = {row.seat: row for row in PlayerGame.objects.filter(game_id=m.game_id)}
    assert rows[1 - played_winner].result == "win" and rows[1 - played_winner].entered
    # The deals were played: the record still shows them, and says the result was entered.
    assert "Deal 1:" in pages["record"]


def test_the_statistics_leave_an_entered_game_out_of_what_needs_deals_and_say_so() -> None:
    t, m = _match()
    play_out(Game.objects.get(pk=m.game_id), {0: m.entrant1.user, 1: m.entrant2.user}, random.Random(1),
             stop=lambda s: s.deal_no >= 2)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="Time", scores="121-100")
    stats = player_stats(m.entrant1.user, vs_computer=False)
    assert stats["games"] == 1 and stats["wins"] == 1 and stats["entered_games"] == 1
    assert stats["deals"] == 0 and stats["complete_deals"] == 0 and stats["best_hand"] is None
    page = _text(logged_in(m.entrant1.user).get(reverse("player_stats", args=[m.entrant1.user.username])))
    assert "1 game whose result the director entered is left out of the best hand" in page


def test_a_rated_entered_result_rates_the_games_entered() -> None:
    t, m = _match(match_games=3, rated=True)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="Paper", games1=2, games2=1)
    change = RatingChange.objects.get(game_id=m.game_id, user=m.entrant1.user)
    assert (change.results, change.score) == (3, 2.0)


def test_a_result_entered_before_games_kept_it_is_put_on_its_game_by_the_migration() -> None:
    from importlib import import_module

    from django.apps import apps

    from games.history.summaries import record_game

    t, m = _match(match_games=3)
    services.match_set_result(match_id=m.pk, winner_id=m.entrant2_id, reason="Paper",
                              scores="121-97, 80-121, 50-121")
    game = Game.objects.get(pk=m.game_id)
    game.result = {k: v for k, v in game.result.items() if k != "entered"}  # as the old code left it
    game.winner_seat = 1
    game.save(update_fields=["result", "winner_seat"])
    record_game(game)
    assert not PlayerGame.objects.get(game=game, seat=1).entered

    import_module("games.tournaments.migrations.0007_entered_results_on_games").forwards(apps, None)
    game.refresh_from_db()
    assert game.result["entered"]["match_scores"] == [1, 2]
    migrated = {row.seat: row for row in PlayerGame.objects.filter(game=game)}
    record_game(game)  # what the site writes for a game entered today
    today = {row.seat: row for row in PlayerGame.objects.filter(game=game)}
    fields = ("result", "entered", "resigned", "score", "opponent_score", "margin", "games_won", "games_lost",
              "skunks_given", "skunks_taken", "double_skunks_given", "double_skunks_taken")
    for seat in (0, 1):
        assert {f: getattr(migrated[seat], f) for f in fields} == {f: getattr(today[seat], f) for f in fields}
    assert "p2 won the match p1 1 – p2 2 (entered by the director)" in _pages(m)["record"]


@pytest.fixture
def director():
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_superuser("td", email="td@example.com", password=None)
    return logged_in(staff)


def test_a_result_entered_on_the_admins_match_page_shows_on_every_screen(director) -> None:
    t, m = _match()
    response = director.post(reverse("admin:tournaments_match_result", args=[m.pk]),
                             {"winner": m.entrant1_id, "reason": "Played at the club", "scores": "121-97"})
    assert response.status_code == 302
    for name, page in _pages(m).items():
        assert MARK in page and ("121–97" in page or "121 – p2 97" in page), name


def test_a_result_entered_on_the_desks_score_sheet_shows_on_every_screen(director) -> None:
    from .test_desk import sheet, url

    t, m = _match()
    response = director.post(url("results", t), sheet(t, {m.pk: (m.entrant2_id, "97-121")}))
    assert response.status_code == 302
    pages = _pages(m)
    for name, page in pages.items():
        # Lists put their reader's score first: p1 lost 97–121.
        shown = ("121–97", "97–121", "97 – p2 121", "97 – You 121")
        assert MARK in page and any(score in page for score in shown), name
    assert "p2 wins 121–97 (entered by the director)" in pages["board"]
