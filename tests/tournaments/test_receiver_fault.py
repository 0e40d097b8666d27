"""A fault in the tournament's handling of a finished game is undone and logged: the move that
finished the game commits all the same, and the match waits for its director."""

from __future__ import annotations

import logging

import pytest

from games.play.models import Game
from games.tournaments import services
from games.tournaments.models import Match, Tournament
from games.tournaments.services import decisions

from .helpers import active_matches, make_players, make_tournament, refresh, resign_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_failing_result_leaves_the_last_move_committed(monkeypatch, caplog) -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)

    def half_done_then_broken(t, m, game):
        Match.objects.filter(pk=m.pk).update(note="half written")
        raise RuntimeError("pairing is broken")

    monkeypatch.setattr(decisions, "score_from_game", half_done_then_broken)
    with caplog.at_level(logging.ERROR, logger="games.play.signals"):
        resign_match(m, m.entrant1)  # raises nothing: the move stands

    game = Game.objects.get(pk=m.game_id)  # read outside any transaction: committed
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    m = refresh(m)
    assert (m.status, m.note, m.winner_id) == (Match.Status.ACTIVE, "", None)  # its write undone
    (record,) = [r for r in caplog.records if "on_game_finished" in r.getMessage()]
    assert f"game={game.pk}" in record.getMessage() and record.exc_info[0] is RuntimeError


def test_without_a_fault_the_result_commits_with_the_move() -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    resign_match(m, m.entrant1)
    m = refresh(m)
    assert m.status == Match.Status.FINISHED and m.winner_id == m.entrant1_id
