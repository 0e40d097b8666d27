"""A tournament's turn timer: every match game has the clock, from the moment both players are at its
board, and a match lost on the clock (or by a claim after the opponent left) reads as such on the
tournament page and the board; a player who never comes is the forfeit's, not a claim's."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.play import services as game_services
from games.play.models import Connection, Game
from games.tournaments import services
from games.tournaments.models import Match, Tournament
from tests.play.factories import act, away_for, logged_in

from .helpers import active_matches, make_players, make_tournament, refresh

pytestmark = pytest.mark.django_db


def _started(prefix: str = "p", *, seated: bool = True, **fields) -> tuple[Tournament, Match]:
    players = make_players(2, prefix)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN, name="Club Cup", **fields)
    services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    if seated:
        _arrive(m, m.entrant1.user)
        _arrive(m, m.entrant2.user)
        m = refresh(m)
    return refresh(t), m


def _arrive(m: Match, user) -> None:
    """``user`` opens the match's board: its socket connects (games.play.presence)."""
    from games.play import presence

    presence.connected(game_id=m.game_id, user=user, channel_name=f"socket-{m.game_id}-{user.pk}")


def _text(user, url: str) -> str:
    response = logged_in(user).get(url)
    assert response.status_code == 200
    return " ".join(html.unescape(response.content.decode()).split())


def test_the_clock_starts_when_both_players_are_at_the_board_not_when_the_round_opens() -> None:
    t, m = _started(turn_timer=60, seated=False)
    game = m.game
    assert game.turn_timer == 0  # the round has opened, nobody is at the board yet: no clock
    _arrive(m, m.entrant1.user)
    assert refresh(game).turn_timer == 0  # one player waiting alone loses no time either
    version = game.version
    _arrive(m, m.entrant2.user)
    game = refresh(game)
    assert game.turn_timer == 60 and game.version == version + 1  # the boards are drawn again
    assert (timezone.now() - game.turn_started_at).total_seconds() < 5
    _arrive(m, m.entrant2.user)  # a second tab changes nothing
    assert refresh(game).turn_started_at == game.turn_started_at


def test_a_player_who_never_comes_is_forfeited_after_the_grace_not_claimed_against(settings) -> None:
    from games.play import presence

    settings.ABSENCE_CLAIM_SECONDS = 60
    t, m = _started(turn_timer=30, seated=False, forfeit_minutes=5)
    first = m.entrant1.user
    _arrive(m, first)
    act(m.game, first, {"type": "cut_for_deal", "position": 3})
    away_for(m.game, 240)
    game = Game.objects.get(pk=m.game_id)
    assert game.turn_timer == 0
    assert not presence.is_away_too_long(game, 1)
    with pytest.raises(game_services.ServiceError, match="claim the win only"):
        game_services.game_claim_win(user=first, game_id=game.pk)
    Match.objects.filter(pk=m.pk).update(started_at=timezone.now() - timedelta(minutes=6))
    services.match_claim_forfeit(user=first, match_id=m.pk)
    m = refresh(m)
    assert (m.winner.user, m.decided_by) == (first, Match.Decided.FORFEIT)


def test_every_game_of_a_timed_tournament_has_the_clock_and_the_page_says_so() -> None:
    t, m = _started(turn_timer=60)
    assert m.game.turn_timer == 60
    assert t.rules_summary()[-1] == "60 seconds a move"
    assert "60 seconds a move" in _text(m.entrant1.user, t.get_absolute_url())
    untimed, match = _started(prefix="q")
    assert match.game.turn_timer == 0 and "a move" not in " ".join(untimed.rules_summary())


def test_a_match_lost_on_time_is_decided_on_time() -> None:
    t, m = _started(turn_timer=30)
    first, second = m.entrant1.user, m.entrant2.user
    game = m.game
    game.seats.filter(user=second).update(timeouts=2)
    act(game, first, {"type": "cut_for_deal", "position": 3})
    away_for(game, 31)
    game_services.game_timeout(user=first, game_id=game.pk)

    m = refresh(m)
    assert (m.status, m.winner_id, m.decided_by) == (Match.Status.FINISHED, m.entrant1_id, Match.Decided.TIME)
    page = _text(first, t.get_absolute_url())
    assert f"{m.entrant1.name} wins 1–0 (on time)" in page
    board = _text(second, reverse("game", args=[game.pk]))
    assert f"{m.entrant1.name} wins on time (3 timeouts)" in board and "resignation" not in board


def test_a_match_won_by_a_claim_is_decided_by_the_claim(settings) -> None:
    from games.play import presence

    settings.ABSENCE_CLAIM_SECONDS = 60
    t, m = _started()
    first, second = m.entrant1.user, m.entrant2.user
    game = m.game
    act(game, first, {"type": "cut_for_deal", "position": 3})
    game.refresh_from_db()
    absent, claimer = (second, first)
    # The second player came to the board, then left it five minutes ago.
    presence.disconnected(game_id=game.pk, channel_name=f"socket-{game.pk}-{second.pk}")
    Connection.objects.filter(game=game, user=second).update(
        last_seen=timezone.now() - timedelta(seconds=300), closed_at=timezone.now() - timedelta(seconds=300)
    )
    away_for(game, 300)
    game_services.game_claim_win(user=claimer, game_id=game.pk)

    m = refresh(m)
    assert (m.winner.user, m.decided_by) == (claimer, Match.Decided.CLAIM)
    assert f"{m.winner.name} wins 1–0 (claimed: opponent absent)" in _text(absent, t.get_absolute_url())
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_a_spectator_sees_whose_clock_runs_but_cannot_act_on_it() -> None:
    from games.tournaments.watch import watch_html

    t, m = _started(turn_timer=60)
    first = m.entrant1.user
    act(m.game, first, {"type": "cut_for_deal", "position": 3})
    game = Game.objects.for_play(m.game_id)
    seen = " ".join(html.unescape(str(watch_html(game))).split())
    assert f"{m.entrant2.name}'s turn timer: <strong class=\"turn-timer__time\">" in seen
    assert "/timeout/" not in seen and "hx-post" not in seen
    untimed, match = _started(prefix="q")
    assert 'class="turn-timer' not in str(watch_html(Game.objects.for_play(match.game_id)))


def test_a_cancelled_tournaments_open_game_loses_its_clock_and_the_page_explains_the_timer() -> None:
    t, m = _started(turn_timer=30)
    page = _text(m.entrant1.user, t.get_absolute_url())
    assert "30 seconds for each decision, from the moment both players are at the board" in page
    services.tournament_cancel(tournament_id=t.pk, reason="The hall is closed")
    game = Game.objects.get(pk=m.game_id)
    assert game.status == Game.Status.ACTIVE and game.turn_timer == 0  # it no longer counts: no forfeit
    board = _text(m.entrant1.user, reverse("game", args=[game.pk]))
    assert "no longer counts" in board and "turn-timer" not in board and "clock" not in board.lower()
    lobby = _text(m.entrant1.user, reverse("lobby"))
    assert "Club Cup, cancelled: no longer counts</a>" in lobby
