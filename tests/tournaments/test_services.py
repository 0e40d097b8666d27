"""Tournaments through the service layer: registration, the draw, results from games, forfeits,
withdrawals, corrections, and whole tournaments played out to a champion."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.history.models import Rating
from games.play import registry
from games.play.models import Game
from games.tournaments import notice_words, selectors, services
from games.tournaments.models import Entrant, Match, Notice, Tournament
from tests.play.factories import fixed_secrets, make_user

from .helpers import (
    active_matches,
    better_seed_wins,
    make_players,
    make_tournament,
    play_match,
    refresh,
    resign_match,
    said,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "tournaments")


def entrant(t: Tournament, user) -> Entrant:
    return Entrant.objects.get(tournament=t, user=user)


# --- registration ---------------------------------------------------------------------------------


def test_registration_window_and_limit() -> None:
    now = timezone.now()
    a, b, c = make_players(3)
    t = make_tournament(
        registration_opens=now + timedelta(hours=1),
        registration_closes=now + timedelta(hours=2),
        max_entrants=2,
    )
    with pytest.raises(services.NotNow, match="not open"):
        services.tournament_register(user=a, tournament_id=t.pk)
    later = now + timedelta(minutes=90)
    services.tournament_register(user=a, tournament_id=t.pk, now=later)
    with pytest.raises(services.NotNow, match="already"):
        services.tournament_register(user=a, tournament_id=t.pk, now=later)
    services.tournament_register(user=b, tournament_id=t.pk, now=later)
    with pytest.raises(services.NotNow, match="full"):
        services.tournament_register(user=c, tournament_id=t.pk, now=later)
    with pytest.raises(services.NotNow, match="not open"):
        services.tournament_register(user=c, tournament_id=t.pk, now=now + timedelta(hours=3))
    services.tournament_unregister(user=a, tournament_id=t.pk)
    assert list(t.entrants.values_list("user__username", flat=True)) == ["p2"]


def test_nobody_registers_once_started() -> None:
    players = make_players(3)
    t = make_tournament(players[:2])
    services.tournament_start(tournament_id=t.pk)
    with pytest.raises(services.NotNow):
        services.tournament_register(user=players[2], tournament_id=t.pk)
    with pytest.raises(services.NotNow):
        services.tournament_unregister(user=players[0], tournament_id=t.pk)


def test_start_needs_two_players() -> None:
    t = make_tournament(make_players(1))
    with pytest.raises(services.NotNow, match="two players"):
        services.tournament_start(tournament_id=t.pk)


def test_seeding_by_hand_then_registration_order(monkeypatch) -> None:
    monkeypatch.setattr(registry, "_ratings", [])  # a site without ratings
    players = make_players(4)
    t = make_tournament(players)
    Entrant.objects.filter(tournament=t, user=players[3]).update(seed=1)
    assert [e.user for e in selectors.seeding_order(t)] == [players[3], players[0], players[1], players[2]]
    assert selectors.rating_function(t) is None
    assert services.seed_entrants(tournament_id=t.pk) is False  # no ratings: registration order
    assert [e.user for e in selectors.seeding_order(t)] == players


def test_seeding_by_rating_when_the_site_has_ratings(monkeypatch) -> None:
    players = make_players(4)
    t = make_tournament(players)
    ratings = {players[0].pk: 1400, players[1].pk: None, players[2].pk: 1700, players[3].pk: 1550}
    asked = set()

    def fake_rating(user, target):
        asked.add(target)
        return ratings[user.pk]

    monkeypatch.setattr(registry, "_ratings", [fake_rating])
    assert services.seed_entrants(tournament_id=t.pk) is True
    # The unrated player comes last.
    assert [e.user for e in selectors.seeding_order(t)] == [players[2], players[3], players[0], players[1]]
    assert asked == {t.target}


def test_seeding_reads_the_ratings_history_keeps_for_the_events_length() -> None:
    players = make_players(3)
    t = make_tournament(players)
    Rating.objects.create(user=players[2], pool=t.target, rating=1800)
    Rating.objects.create(user=players[1], pool=t.target, rating=1600)
    Rating.objects.create(user=players[0], pool=61 if t.target == 121 else 121, rating=2000)  # another length
    assert services.seed_entrants(tournament_id=t.pk) is True
    assert [e.user for e in selectors.seeding_order(t)] == [players[2], players[1], players[0]]


# --- the draw -------------------------------------------------------------------------------------


def test_round_robin_start_creates_round_one_games_with_the_house_rules() -> None:
    players = make_players(5)
    t = make_tournament(
        players, format=Tournament.Format.ROUND_ROBIN, match_games=3, target=61, peg_out_zone=5, skunks=True
    )
    services.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    assert (t.status, t.stage, t.current_round) == ("running", "rr", 1)
    matches = Match.objects.filter(tournament=t)
    assert matches.count() == 5 * 3  # five rounds of two matches and a bye
    assert matches.filter(status=Match.Status.BYE).count() == 5
    round_one = active_matches(t)
    assert len(round_one) == 2
    for m in round_one:
        game = m.game
        assert game.status == Game.Status.ACTIVE
        assert (game.target, game.match_games, game.peg_out_zone, game.manual_counting, game.hints) == (
            61,
            3,
            5,
            False,
            False,
        )
        assert [s.user_id for s in game.seats.order_by("index")] == [m.entrant1.user_id, m.entrant2.user_id]
    assert sorted(e.seed for e in t.entrants.all()) == [1, 2, 3, 4, 5]


def test_knockout_start_gives_byes_to_the_top_seeds() -> None:
    players = make_players(5)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    first = Match.objects.filter(tournament=t, stage="ko", round_no=1).order_by("slot")
    byes = sorted(m.entrant1.seed for m in first if m.status == Match.Status.BYE)
    assert byes == [1, 2, 3]
    # Seeds 1, 2 and 3 are already in round two; seeds 4 and 5 play.
    played = [m for m in first if m.status == Match.Status.ACTIVE]
    assert len(played) == 1 and {played[0].entrant1.seed, played[0].entrant2.seed} == {4, 5}
    second = Match.objects.filter(tournament=t, stage="ko", round_no=2)
    assert second.count() == 2
    # Seeds 2 and 3 meet in round two, and that game starts at once.
    m23 = second.get(status=Match.Status.ACTIVE)
    assert {m23.entrant1.seed, m23.entrant2.seed} == {2, 3}


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


# --- withdrawals ----------------------------------------------------------------------------------


def test_withdrawal_in_a_round_robin_hands_the_remaining_matches_over() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    gone = entrant(t, players[3])
    services.entrant_withdraw(entrant_id=gone.pk, reason="Called away")
    theirs = Match.objects.filter(tournament=t, entrant1=gone) | Match.objects.filter(
        tournament=t, entrant2=gone
    )
    assert all(m.status == Match.Status.FINISHED and m.winner_id != gone.pk for m in theirs)
    assert all(m.decided_by == Match.Decided.WITHDRAWAL for m in theirs)
    game = next(m.game for m in theirs if m.game_id)
    assert game.status == Game.Status.FINISHED  # the game in play was resigned for them
    (notice,) = notice_words.in_words(t.notices.filter(kind=Notice.Kind.WITHDRAWAL))
    assert "p4" in notice.words and notice.reason_words == "Called away"
    table = selectors.standings(t)
    assert table[-1].player == gone and table[-1].withdrawn
    better_seed_wins(t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.champion == players[0]


def test_withdrawal_in_a_bracket_sends_the_opponent_through() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    first, second = active_matches(t)
    resign_match(first, first.entrant1)
    # The first semi-final's winner withdraws before the final: the other winner takes it.
    services.entrant_withdraw(entrant_id=first.entrant1_id, reason="Ill")
    resign_match(second, second.entrant2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert t.champion == second.entrant2.user
    final = Match.objects.get(tournament=t, round_no=2)
    assert final.decided_by == Match.Decided.WITHDRAWAL and final.game_id is None


def test_withdrawal_before_the_start_keeps_the_player_out_of_the_draw() -> None:
    players = make_players(3)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.entrant_withdraw(entrant_id=entrant(t, players[2]).pk)
    services.tournament_start(tournament_id=t.pk)
    assert Match.objects.filter(tournament=t).count() == 1


# --- forfeits -------------------------------------------------------------------------------------


def cut(m: Match, user) -> None:
    from games.play import services as game_services

    game = Game.objects.get(pk=m.game_id)
    game_services.game_act(
        user=user, game_id=game.pk, version=game.version, action={"type": "cut_for_deal", "position": 3}
    )


def test_claiming_a_forfeit() -> None:
    players = make_players(2)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN, forfeit_minutes=5)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    present, absent = m.entrant1, m.entrant2
    later = timezone.now() + timedelta(minutes=6)
    with pytest.raises(services.NotNow, match="first move"):
        services.match_claim_forfeit(user=present.user, match_id=m.pk, now=later)
    cut(m, present.user)
    with pytest.raises(services.NotNow, match="after"):
        services.match_claim_forfeit(user=present.user, match_id=m.pk)
    with pytest.raises(services.NotAllowed):
        services.match_claim_forfeit(user=make_user("stranger"), match_id=m.pk, now=later)
    with pytest.raises(services.NotNow):
        services.match_claim_forfeit(user=absent.user, match_id=m.pk, now=later)
    services.match_claim_forfeit(user=present.user, match_id=m.pk, now=later)
    m.refresh_from_db()
    assert (m.status, m.winner_id, m.decided_by) == ("finished", present.pk, "forfeit")
    assert (m.games1, m.games2, m.points1, m.points2, m.spread) == (1, 0, 2, 0, 0)
    assert "made no move within 5 minutes" in m.note
    assert refresh(m.game).status == Game.Status.FINISHED
    assert said(t, "p2 forfeited", kind=Notice.Kind.FORFEIT)


def test_the_forfeit_command_applies_due_forfeits_and_respects_extensions(capsys) -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN, forfeit_minutes=5)
    services.tournament_start(tournament_id=t.pk)
    one, two = active_matches(t)
    cut(one, one.entrant1.user)  # match one: the second player is absent
    # match two: neither has moved (left to the organiser)
    services.match_extend(match_id=one.pk, minutes=10)
    past_grace = timezone.now() + timedelta(minutes=6)
    report = services.apply_due_forfeits(now=past_grace)
    assert [(m.pk, what) for m, what in report] == [
        (two.pk, "neither player has moved: left to the organiser")
    ]
    assert refresh(one).status == Match.Status.ACTIVE  # extended: not yet
    Match.objects.filter(tournament=t).update(started_at=timezone.now() - timedelta(minutes=16))
    call_command("tournament_forfeits")
    out = capsys.readouterr().out
    assert "p" in out and "1 forfeit applied." in out
    one.refresh_from_db()
    assert (one.status, one.winner_id, one.decided_by) == ("finished", one.entrant1_id, "forfeit")
    assert refresh(two).status == Match.Status.ACTIVE
    assert t.notices.filter(kind=Notice.Kind.DEADLINE).exists()


def test_a_tournament_game_cannot_be_aborted() -> None:
    from games.play import services as game_services

    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    with pytest.raises(game_services.NotAvailable, match="tournament game"):
        game_services.game_abort(user=m.entrant1.user, game_id=m.game_id)
    m.refresh_from_db()
    assert m.status == Match.Status.ACTIVE and m.game.status == Game.Status.ACTIVE


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


def test_a_forfeit_note_counts_its_minutes_in_words() -> None:
    assert [services.common.minutes_text(n) for n in (1, 2, 5)] == ["1 minute", "2 minutes", "5 minutes"]
