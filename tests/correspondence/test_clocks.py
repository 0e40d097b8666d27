"""Correspondence games: days a move, the time bank, vacation, running out of time. Time is moved
through ``games.correspondence.clock.now``, never slept through."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games.correspondence.clock import VACATION_DAYS_A_YEAR, starting_bank
from games.correspondence.models import SeatClock
from games.correspondence.services import (
    end_abandoned,
    game_claim_on_time,
    game_give_time,
    vacation_end,
    vacation_start,
    withdraw_stale_seeks,
)
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from games.play.services import ServiceError
from tests.correspondence.support import DAY, START, clocks, correspondence_game, move_once
from tests.play.factories import load, make_user, play_out


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")

pytestmark = pytest.mark.django_db

def test_the_clock_starts_for_both_on_the_cut_with_days_and_bank(clock, players):
    game = correspondence_game(*players, days=2)
    both = clocks(game)
    bank = starting_bank(2)
    assert bank == 4 * 86400
    for c in both.values():
        assert c.bank_seconds == bank
        assert c.deadline_at == START + timedelta(days=2, seconds=bank)


def test_a_move_in_time_keeps_the_bank_and_stops_the_clock(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    clock.advance(hours=20)
    move_once(game, {0: alice, 1: bob}, seat=0)
    mine = clocks(game)[0]
    assert mine.deadline_at is None and mine.bank_seconds == starting_bank(1)
    assert clocks(game)[1].deadline_at == START + DAY + timedelta(days=2)  # still running for bob


def test_a_late_move_draws_on_the_bank(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    clock.advance(days=1, hours=6)  # six hours past the day
    move_once(game, {0: alice, 1: bob}, seat=0)
    assert clocks(game)[0].bank_seconds == starting_bank(1) - 6 * 3600


def test_the_clock_runs_only_on_the_player_to_move(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    users = {0: alice, 1: bob}
    play_out(game, users, random.Random(3), stop=lambda s: s.phase == "play")
    state = load(game)
    due = set(state.to_act)
    assert len(due) == 1
    for index, c in clocks(game).items():
        assert (c.deadline_at is not None) == (index in due)


def test_out_of_time_the_opponent_claims_the_win(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)  # alice cuts; bob does not
    with pytest.raises(services.NotAvailable):
        game_claim_on_time(user=alice, game_id=game.pk)
    clock.advance(days=3, minutes=1)  # the day and a bank of two
    game_claim_on_time(user=alice, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    assert game.result["ending"] == {"how": "time", "seat": 1, "clock": "correspondence", "by": 0}
    assert all(c.deadline_at is None for c in clocks(game).values())


def test_the_late_player_cannot_claim_against_the_one_waiting(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)
    clock.advance(days=4)
    with pytest.raises(services.NotAvailable):
        game_claim_on_time(user=bob, game_id=game.pk)


def test_giving_more_time_instead(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob, days=3)
    move_once(game, {0: alice, 1: bob}, seat=0)
    clock.advance(days=10)
    game_give_time(user=alice, game_id=game.pk)
    late = clocks(game)[1]
    assert late.deadline_at == clock.at + timedelta(days=3) and late.extended == 1
    with pytest.raises(services.NotAvailable):
        game_claim_on_time(user=alice, game_id=game.pk)
    move_once(game, {0: alice, 1: bob}, seat=1)  # bob comes back and plays on
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_game_left_out_of_time_ends_by_itself_as_abandoned(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)
    clock.advance(days=3, hours=1)
    assert end_abandoned() == 0  # out of time, but the opponent may still choose
    clock.advance(days=3)
    assert end_abandoned() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    assert game.result["ending"]["abandoned"] is True
    assert end_abandoned() == 0


def test_vacation_stops_the_clocks_and_ending_it_early_gives_back_the_days(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)
    before = clocks(game)[1].deadline_at
    vacation_start(user=bob, days=5)
    assert clocks(game)[1].deadline_at == before + timedelta(days=5)
    clock.advance(days=6)  # past the day and the bank, but on vacation
    with pytest.raises(services.NotAvailable):
        game_claim_on_time(user=alice, game_id=game.pk)
    clock.advance(days=-4)
    vacation = vacation_end(user=bob)
    assert vacation.seconds_used == 2 * 86400
    assert clocks(game)[1].deadline_at == before + timedelta(days=2)


def test_a_turn_that_comes_during_vacation_starts_when_it_ends(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    vacation_start(user=alice, days=3)
    move_once(game, {0: alice, 1: bob}, seat=1)
    move_once(game, {0: alice, 1: bob}, seat=0)  # the cut made, the deal comes to both
    assert load(game).phase != "cut"
    assert clocks(game)[0].deadline_at == START + timedelta(days=3) + DAY + timedelta(days=2)


def test_vacation_days_are_counted_by_the_year(clock, players):
    alice, _ = players
    vacation_start(user=alice, days=VACATION_DAYS_A_YEAR)
    vacation_end(user=alice)
    with pytest.raises(ServiceError):
        vacation_start(user=alice, days=VACATION_DAYS_A_YEAR + 1)
    with pytest.raises(ServiceError):
        vacation_start(user=alice, days=0)


def test_never_against_the_computer_and_never_with_a_turn_timer(players):
    alice, bob = players
    with pytest.raises(ServiceError):
        services.game_create_seek(user=alice, rules=HouseRules(), days_per_move=1, turn_timer=30)
    with pytest.raises(ServiceError):
        services.game_create_seek(user=alice, rules=HouseRules(), days_per_move=4)


def test_a_rematch_is_correspondence_too(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob, days=5)
    services.game_abort(user=alice, game_id=game.pk)
    finished = correspondence_game(alice, bob, days=5)
    move_once(finished, {0: alice, 1: bob}, seat=0)
    clock.advance(days=20)
    game_claim_on_time(user=alice, game_id=finished.pk)
    rematch = services.game_rematch(user=bob, game_id=finished.pk)
    assert rematch.days_per_move == 5
    started = services.game_rematch(user=alice, game_id=finished.pk)
    assert started.status == Game.Status.ACTIVE and len(clocks(started)) == 2


def test_a_live_game_has_no_clocks(players):
    alice, bob = players
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    game = services.game_accept(user=bob, game_id=seek.pk)
    move_once(game, {0: alice, 1: bob}, seat=0)
    assert not SeatClock.objects.exists()


def test_stale_correspondence_seeks_are_withdrawn(clock, players):
    alice, _ = players
    seek = services.game_create_seek(user=alice, rules=HouseRules(), days_per_move=3)
    Game.objects.filter(pk=seek.pk).update(created_at=START - timedelta(days=15))
    assert withdraw_stale_seeks() == 1
    assert Game.objects.get(pk=seek.pk).status == Game.Status.ABORTED


def test_absence_is_no_way_to_win_a_game_at_your_own_pace(players):
    """Away between moves is how such a game is played: the presence line offers no claim, and the
    service refuses one, however long the other player has stayed away."""
    from django.utils import timezone

    from games.play import presence

    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)  # bob to cut, and he has never opened the game
    long_ago = timezone.now() - timedelta(days=2)
    Game.objects.filter(pk=game.pk).update(created_at=long_ago, turn_started_at=long_ago)
    game.refresh_from_db()
    [bobs] = presence.table(game, 0, (1,))
    assert not bobs.here and bobs.claim_at is None and not bobs.can_claim
    with pytest.raises(services.NotAvailable, match="won on time, not by absence"):
        services.game_claim_win(user=alice, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_at_your_own_pace_the_absent_are_named_plainly_not_warned_about(players):
    from games.play.board.status import presence_context

    alice, bob = players
    game = correspondence_game(alice, bob)
    context = presence_context(game, alice)
    assert context["paced_line"] == "bob is not at the table just now"
    assert context["unseen_line"] == "" and context["away"] == []
