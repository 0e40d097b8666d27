"""The day's puzzle: a clear answer (the margin), from real games when one fits, dealt otherwise,
one a day however often it is asked for."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command

from games.engine.cards import parse_cards
from games.engine.players.discard_chances import discard_chances
from games.history.summaries import summaries_for
from games.puzzles import choice, services
from games.puzzles.models import Puzzle
from tests.history.helpers import finish_between
from tests.play.factories import make_user

pytestmark = pytest.mark.django_db


def _assert_clear(puzzle: Puzzle) -> None:
    wins = [row["win"] for row in puzzle.table]
    assert len(wins) == 15 and wins == sorted(wins, reverse=True)
    assert puzzle.margin >= choice.MARGIN
    assert puzzle.margin == pytest.approx(wins[0] - wins[1], abs=1e-4)


def test_without_games_the_puzzle_is_dealt_for_the_day(clock):
    puzzle = services.puzzle_of_today()
    assert puzzle.day == date(2026, 3, 10)
    assert puzzle.source == Puzzle.Source.GENERATED and puzzle.game_id_ref is None
    assert len(set(puzzle.cards)) == 6
    _assert_clear(puzzle)


def test_the_stored_table_is_the_engines():
    puzzle = services.puzzle_for(date(2026, 3, 1))
    chances = discard_chances(parse_cards(puzzle.hand), puzzle.is_dealer, puzzle.my_score, puzzle.their_score,
                              puzzle.target)
    assert puzzle.table == choice.split_rows(chances)
    assert {"laid_away", "kept", "expected_hand", "expected_crib", "net", "win"} == set(puzzle.table[0])


def test_a_deal_from_a_finished_game_is_chosen_when_one_fits():
    game = finish_between(make_user("alice"), make_user("bob"), seed=4)
    puzzle = services.puzzle_for(date(2026, 3, 2))
    assert puzzle.source == Puzzle.Source.GAME and puzzle.game_id_ref == game.pk
    game_no, deal_no, seat = map(int, puzzle.deal_ref.split("."))
    deal = next(s for s in summaries_for(game) if (s["game_no"], s["deal_no"]) == (game_no, deal_no))
    assert puzzle.cards == deal["hands"][seat]
    before = deal["scores_before"]
    assert (puzzle.my_score, puzzle.their_score) == (before[seat], before[1 - seat])
    assert puzzle.is_dealer == (deal["dealer"] == seat) and puzzle.target == game.target
    _assert_clear(puzzle)
    # The next day takes another deal, never the same one twice.
    other = services.puzzle_for(date(2026, 3, 3))
    assert (other.game_id_ref, other.deal_ref) != (puzzle.game_id_ref, puzzle.deal_ref)


def test_games_without_a_clear_deal_give_a_dealt_puzzle(monkeypatch):
    finish_between(make_user("alice"), make_user("bob"), seed=4)
    valued = choice.valued
    seen = []

    def no_clear_deal_in_games(deal):
        found = valued(deal)
        if deal.game_id is not None:
            seen.append(deal)
            return choice.Choice(deal, found.table, 0.0)
        return found

    monkeypatch.setattr(choice, "valued", no_clear_deal_in_games)
    puzzle = services.puzzle_for(date(2026, 3, 2))
    assert seen, "the played deals were looked at first"
    assert puzzle.source == Puzzle.Source.GENERATED
    _assert_clear(puzzle)


def test_one_puzzle_a_day_however_often_it_is_asked_for(clock, capsys):
    call_command("daily_puzzle")
    first = Puzzle.objects.get()
    call_command("daily_puzzle")
    assert services.puzzle_of_today().pk == first.pk
    assert Puzzle.objects.count() == 1
    assert "2026-03-10" in capsys.readouterr().out
    clock.advance(days=1)
    call_command("daily_puzzle")
    assert list(Puzzle.objects.values_list("day", flat=True)) == [date(2026, 3, 11), date(2026, 3, 10)]


def test_the_same_day_gives_the_same_deal_and_different_days_differ():
    a = choice.choose(date(2026, 5, 1))
    assert choice.choose(date(2026, 5, 1)) == a
    assert choice.choose(date(2026, 5, 2)).deal != a.deal


def test_the_command_fills_a_missed_day_but_never_a_future_one(clock):
    from django.core.management.base import CommandError

    call_command("daily_puzzle", day="2026-03-08")
    assert Puzzle.objects.filter(day=date(2026, 3, 8)).exists()
    with pytest.raises(CommandError):
        call_command("daily_puzzle", day="2026-03-11")
    with pytest.raises(CommandError):
        call_command("daily_puzzle", day="yesterday")


def test_the_first_visitor_of_a_day_the_scheduler_missed_gets_a_puzzle(client):
    response = client.get("/puzzles/")
    assert response.status_code == 302 and response["Location"] == "/puzzles/2026-03-10/"
    assert client.get("/puzzles/2026-03-10/").status_code == 200  # at nine: the midnight job is late
    assert Puzzle.objects.filter(day=date(2026, 3, 10)).count() == 1


def test_a_game_whose_moves_no_longer_replay_is_passed_over(monkeypatch):
    from games.history.replay import ReplayError

    finish_between(make_user("alice"), make_user("bob"), seed=4)

    def broken(game):
        raise ReplayError("the log does not replay")

    monkeypatch.setattr(choice, "summaries_for", broken)
    assert choice.played_deals() == []
    assert services.puzzle_for(date(2026, 3, 2)).source == Puzzle.Source.GENERATED
