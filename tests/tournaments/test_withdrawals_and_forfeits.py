"""Players gone from a tournament, through the service layer: withdrawals in a round robin, in a
bracket and before the start; forfeits claimed or applied by the command (extensions respected); and
a tournament game, which cannot be aborted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.play.models import Game
from games.tournaments import notice_words, selectors, services
from games.tournaments.models import Entrant, Match, Notice, Tournament
from tests.play.factories import make_user

from .helpers import (
    _secrets,  # noqa: F401  autouse: games dealt from the "tournaments" secrets
    active_matches,
    better_seed_wins,
    make_players,
    make_tournament,
    refresh,
    resign_match,
    said,
)

pytestmark = pytest.mark.django_db


def entrant(t: Tournament, user) -> Entrant:
    return Entrant.objects.get(tournament=t, user=user)


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


def test_a_forfeit_note_counts_its_minutes_in_words() -> None:
    assert [services.common.minutes_text(n) for n in (1, 2, 5)] == ["1 minute", "2 minutes", "5 minutes"]
