"""Results the director sets through the service layer: a match in play decided with its reason
kept, a bracket winner corrected (the next match follows), round robin scores corrected (the standings
follow), what a result needs; and cancelling the tournament."""

from __future__ import annotations

import pytest

from games.play.models import Game
from games.tournaments import selectors, services
from games.tournaments.models import Match, Notice, Tournament
from tests.play.factories import make_user

from .helpers import (
    _secrets,  # noqa: F401  autouse: games dealt from the "tournaments" secrets
    active_matches,
    make_players,
    make_tournament,
    refresh,
    resign_match,
    said,
)

pytestmark = pytest.mark.django_db


# --- results entered by the director --------------------------------------------------------------


def test_admin_sets_a_result_of_a_match_in_play_and_the_reason_is_kept() -> None:
    admin_user = make_user("td")
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    m = active_matches(t)[0]
    services.match_set_result(
        match_id=m.pk, winner_id=m.entrant2_id, reason="Player 1 left the hall", by=admin_user
    )
    m.refresh_from_db()
    assert (m.status, m.winner_id, m.decided_by, m.note) == (
        "finished",
        m.entrant2_id,
        "admin",
        "Player 1 left the hall",
    )
    assert (m.games1, m.games2) == (0, 1)
    assert refresh(m.game).status == Game.Status.FINISHED  # the loser resigned the game on the board
    notice = t.notices.get(kind=Notice.Kind.RESULT)
    assert notice.reason == "Player 1 left the hall" and notice.posted_by == admin_user
    assert Match.objects.get(tournament=t, round_no=2).entrant1_id == m.entrant2_id


def test_correcting_a_bracket_winner_replaces_them_in_the_next_match() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    first, second = active_matches(t)
    resign_match(first, first.entrant1)
    final = Match.objects.get(tournament=t, round_no=2)
    assert final.entrant1_id == first.entrant1_id and final.game_id is None
    services.match_set_result(
        match_id=first.pk, winner_id=first.entrant2_id, reason="Miscount reported", games1=0, games2=1
    )
    final.refresh_from_db()
    assert final.entrant1_id == first.entrant2_id
    resign_match(second, second.entrant1)
    final.refresh_from_db()
    assert final.status == Match.Status.ACTIVE
    assert {final.entrant1_id, final.entrant2_id} == {first.entrant2_id, second.entrant1_id}
    # Once the final has begun its game, correcting a semi-final voids that game and starts again.
    old_game = final.game_id
    services.match_set_result(match_id=second.pk, winner_id=second.entrant2_id, reason="Late correction")
    final.refresh_from_db()
    assert final.game_id not in (None, old_game)
    assert final.entrant2_id == second.entrant2_id
    assert said(t, f"Game {old_game}")
    # After the final is decided, the semi-final winner cannot change any more.
    resign_match(final, final.entrant1)
    with pytest.raises(services.NotNow, match="already decided"):
        services.match_set_result(match_id=second.pk, winner_id=second.entrant1_id, reason="Too late")


def test_correcting_round_robin_scores_changes_the_standings() -> None:
    players = make_players(2)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    resign_match(m, m.entrant1)
    t.refresh_from_db()
    assert t.status == "finished" and t.champion == m.entrant1.user
    services.match_set_result(
        match_id=m.pk, winner_id=m.entrant2_id, reason="Scorer error", points2=3, spread=-30
    )
    t.refresh_from_db()
    m.refresh_from_db()
    assert (m.points1, m.points2, m.spread) == (0, 3, -30)
    assert t.champion == m.entrant2.user
    assert [row.player for row in selectors.standings(t)] == [m.entrant2, m.entrant1]


def test_a_result_needs_a_reason_and_a_real_winner() -> None:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    with pytest.raises(services.TournamentError, match="reason"):
        services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="  ")
    with pytest.raises(services.TournamentError, match="one of"):
        services.match_set_result(match_id=m.pk, winner_id=999999, reason="x")
    with pytest.raises(services.TournamentError, match="fewer games"):
        services.match_set_result(match_id=m.pk, winner_id=m.entrant1_id, reason="x", games1=0, games2=1)


# --- cancelling -----------------------------------------------------------------------------------


def test_cancel_voids_open_matches_and_later_results_are_ignored() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    m = active_matches(t)[0]
    services.tournament_cancel(tournament_id=t.pk, reason="Server move")
    assert refresh(m).status == Match.Status.VOID
    resign_match(m, m.entrant1)  # the game can still be finished by its players
    assert refresh(m).status == Match.Status.VOID
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert t.notices.get(kind=Notice.Kind.CANCEL).reason == "Server move"
    with pytest.raises(services.NotNow):
        services.tournament_cancel(tournament_id=t.pk)
