"""Whole tournaments through the service layer, played out to a champion: knockouts, round robins,
a qualifying stage and its playoff, skunks in qualifying, a game reported twice, and advancing by hand
(with auto-advance off, past a straggler, or refused while results are missing)."""

from __future__ import annotations

import pytest

from games.play.models import Game
from games.tournaments import selectors, services
from games.tournaments.models import Match, Notice, Tournament

from .helpers import (
    _secrets,  # noqa: F401  autouse: games dealt from the "tournaments" secrets
    active_matches,
    better_seed_wins,
    make_players,
    make_tournament,
    play_match,
    refresh,
    resign_match,
)

pytestmark = pytest.mark.django_db


# --- whole tournaments ----------------------------------------------------------------------------


def test_four_player_knockout_played_out_to_a_champion() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT, match_games=1)
    services.tournament_start(tournament_id=t.pk)
    semis = active_matches(t)
    assert [{m.entrant1.seed, m.entrant2.seed} for m in semis] == [{1, 4}, {2, 3}]
    # Semi-final 1 by random legal moves, semi-final 2 by a resignation (the lower seed wins).
    play_match(semis[0], seed=1)
    resign_match(semis[1], next(e for e in (semis[1].entrant1, semis[1].entrant2) if e.seed == 3))
    done = [refresh(m) for m in semis]
    assert all(m.status == Match.Status.FINISHED for m in done)
    assert done[0].decided_by == Match.Decided.PLAY
    game = refresh(done[0].game)
    won = game.result["games"][0]
    assert done[0].winner == (done[0].entrant1 if game.winner_seat == 0 else done[0].entrant2)
    assert (done[0].games1 + done[0].games2) == 1
    spread = 121 - won["loser_score"]
    assert done[0].spread == (spread if game.winner_seat == 0 else -spread)
    assert done[1].decided_by == Match.Decided.RESIGN
    final = Match.objects.get(tournament=t, stage="ko", round_no=2)
    assert final.status == Match.Status.ACTIVE
    assert {final.entrant1_id, final.entrant2_id} == {done[0].winner_id, done[1].winner_id}
    t.refresh_from_db()
    assert t.current_round == 2
    resign_match(final, final.entrant2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert t.champion == final.entrant2.user
    assert t.notices.filter(kind=Notice.Kind.FINISH).exists()


def test_five_player_round_robin_then_playoff_end_to_end() -> None:
    players = make_players(5)
    t = make_tournament(
        players, format=Tournament.Format.QUALIFYING, match_games=1, playoff_match_games=3, qualifiers=3
    )
    services.tournament_start(tournament_id=t.pk)
    rounds_seen = []
    for _ in range(10):
        t.refresh_from_db()
        if t.stage != "rr":
            break
        rounds_seen.append(t.current_round)
        better_seed_wins_one_round(t)
    assert rounds_seen == [1, 2, 3, 4, 5]
    t.refresh_from_db()
    assert (t.status, t.stage) == ("running", "ko")
    table = selectors.standings(t)
    assert [row.player.seed for row in table] == [1, 2, 3, 4, 5]  # the better seed won every match
    assert [row.points for row in table] == [8, 6, 4, 2, 0]
    assert all(row.played == 4 for row in table)
    ranks = {e.user.username: e.qualifying_rank for e in t.entrants.select_related("user")}
    assert ranks == {"p1": 1, "p2": 2, "p3": 3, "p4": None, "p5": None}
    # Playoff: three qualifiers, so the top seed has a bye and 2 meets 3 in a best of 3.
    ko = Match.objects.filter(tournament=t, stage="ko").order_by("round_no", "slot")
    assert [(m.round_no, m.status) for m in ko] == [(1, "bye"), (1, "active"), (2, "waiting")]
    semi = ko[1]
    assert semi.match_games == 3 and semi.game.match_games == 3
    resign_match(semi, semi.entrant2)  # the qualifying number 3 wins the semi-final
    final = Match.objects.get(tournament=t, stage="ko", round_no=2)
    assert final.status == Match.Status.ACTIVE
    assert {final.entrant1.qualifying_rank, final.entrant2.qualifying_rank} == {1, 3}
    play_match(final, seed=7)
    t.refresh_from_db()
    final.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert t.champion == final.winner.user
    game = final.game
    assert (final.games1, final.games2) == tuple(
        sum(1 for g in game.result["games"] if g["winner"] == seat) for seat in (0, 1)
    )
    notices = list(t.notices.values_list("kind", flat=True))
    assert notices.count("round") == 6  # five rounds and the playoff
    assert "finish" in notices


def better_seed_wins_one_round(t: Tournament) -> None:
    for m in active_matches(t):
        resign_match(m, min((m.entrant1, m.entrant2), key=lambda e: e.seed))


def test_round_robin_only_finishes_with_the_top_of_the_table() -> None:
    players = make_players(3)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    better_seed_wins(t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert t.champion == players[0]


def test_skunks_score_three_points_in_qualifying() -> None:
    players = make_players(2)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    result = {
        "scores": [121, 80],
        "match_scores": [2, 0],
        "games": [
            {"winner": 0, "scores": [121, 80], "loser_score": 80, "skunk": 1, "value": 2, "reason": "target"}
        ],
    }
    Game.objects.filter(pk=m.game_id).update(status=Game.Status.FINISHED, winner_seat=0, result=result)
    from games.play.signals import game_finished

    game_finished.send(sender=Game, game=Game.objects.get(pk=m.game_id))
    m.refresh_from_db()
    assert (m.points1, m.points2, m.games1, m.games2, m.spread) == (3, 0, 1, 0, 41)
    assert m.winner == m.entrant1


def test_auto_advance_off_waits_for_the_admin() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    better_seed_wins(t)
    t.refresh_from_db()
    assert t.current_round == 1 and not active_matches(t)
    assert services.tournament_advance(tournament_id=t.pk) == "round 2"
    assert len(active_matches(t)) == 2


def test_knockout_with_auto_advance_off_starts_round_one_then_waits() -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.KNOCKOUT, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    semis = active_matches(t)
    assert len(semis) == 2
    for m in semis:
        resign_match(m, m.entrant1)
    final = Match.objects.get(tournament=t, round_no=2)
    assert final.status == Match.Status.WAITING and final.entrant1_id and final.entrant2_id
    assert services.tournament_advance(tournament_id=t.pk) == "final"
    assert refresh(final).status == Match.Status.ACTIVE


def test_a_game_reported_twice_counts_once() -> None:
    from games.play.signals import game_finished

    t = make_tournament(make_players(4), format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    first, second = active_matches(t)
    resign_match(first, first.entrant1)
    game_finished.send(sender=Game, game=refresh(first.game))
    resign_match(second, second.entrant1)
    game_finished.send(sender=Game, game=refresh(second.game))
    assert Match.objects.get(tournament=t, round_no=2).game_id is not None
    assert Game.objects.filter(tournament_matches__tournament=t).count() == 3


def test_advance_round_robin_while_a_match_is_still_playing() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    straggler, other = active_matches(t)
    resign_match(other, other.entrant1)
    services.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.current_round == 2
    assert refresh(straggler).status == Match.Status.ACTIVE
    # The straggler's result still counts when it comes.
    resign_match(straggler, straggler.entrant1)
    assert refresh(straggler).status == Match.Status.FINISHED


def test_advance_knockout_refuses_while_results_are_missing() -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    with pytest.raises(services.NotNow, match="Nothing to advance"):
        services.tournament_advance(tournament_id=t.pk)


def test_advance_names_only_the_matches_in_play() -> None:
    t = make_tournament(make_players(3), format=Tournament.Format.KNOCKOUT, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)  # p1 has a bye into the final: "p1 v ?"
    with pytest.raises(services.NotNow) as refused:
        services.tournament_advance(tournament_id=t.pk)
    assert refused.value.message == (
        "Nothing to advance: waiting for p2 v p3 to finish; "
        "1 later match cannot start until its players are known."
    )
