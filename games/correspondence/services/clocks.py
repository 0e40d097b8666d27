"""Correspondence clocks run out, claimed or extended, and stopped by a vacation. The arithmetic is
``games.correspondence.clock``'s; the game is locked and ended through play's services."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from games.correspondence import clock, turn_count
from games.correspondence.models import SeatClock, Vacation
from games.play import endings
from games.play import services as play
from games.play.models import Game
from games.play.services import NotAPlayer, NotAvailable, Outcome, ServiceError

log = logging.getLogger("games.actions")


def _out_of_time(game: Game, at) -> SeatClock | None:
    return SeatClock.objects.filter(game=game, deadline_at__lt=at).order_by("deadline_at").first()


def _late_against(game: Game, seat: int, at) -> SeatClock:
    """The clock that ran out, when ``seat`` may claim or give time on it: a player of another side
    (a partner's lateness is not theirs to rule on)."""
    for late in SeatClock.objects.filter(game=game, deadline_at__lt=at).order_by("deadline_at"):
        if not clock.same_side(game.players, late.index, seat):
            return late
    raise NotAvailable("Your opponent still has time to move." if game.players == 2
                       else "Nobody on the other side is out of time.")


def _running(game_id: int, user: AbstractBaseUser) -> tuple[Game, int]:
    """The game locked, and ``user``'s seat in it, while its correspondence clocks run."""
    game = play.game_lock(game_id)
    seat = game.seat_of(user)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if game.status != Game.Status.ACTIVE or not game.days_per_move:
        raise NotAvailable("This game has no correspondence clock running.")
    return game, seat


@transaction.atomic
def game_claim_on_time(*, user: AbstractBaseUser, game_id: int) -> Outcome:
    """An opponent's correspondence clock ran out: their side loses on time (at a table of three the
    better placed of the others wins, as when a player resigns)."""
    game, seat = _running(game_id, user)
    late = _late_against(game, seat, clock.now())
    outcome = play.game_lose_on_time(game=game, seat=late.index,
                                     ending=endings.out_of_time(late.index, by=seat))
    log.info("game=%s user=%s action=claim_on_time late_seat=%s", game.pk, user.pk, late.index)
    return outcome


@transaction.atomic
def game_give_time(*, user: AbstractBaseUser, game_id: int) -> Game:
    """The opponent's clock ran out and the player gives them more: the days of one more move,
    from now."""
    game, seat = _running(game_id, user)
    at = clock.now()
    late = _late_against(game, seat, at)
    transaction.on_commit(lambda: turn_count.forget_counts([late.user_id]))
    SeatClock.objects.filter(pk=late.pk).update(
        deadline_at=at + timedelta(days=game.days_per_move), extended=F("extended") + 1)
    play.redraw_boards([game.pk], changed=True)
    game.refresh_from_db(fields=["version", "updated_at"])
    log.info("game=%s user=%s action=give_time late_seat=%s", game.pk, user.pk, late.index)
    return game


def end_abandoned(*, limit: int = 500) -> int:
    """End the games whose player to move ran out of time ``ABANDON_AFTER`` ago, with nobody
    claiming or giving time since: lost on time, abandoned. Each in its own transaction. Returns
    how many ended."""
    cutoff = clock.now() - clock.ABANDON_AFTER
    game_ids = list(SeatClock.objects.filter(deadline_at__lt=cutoff, game__status=Game.Status.ACTIVE)
                    .order_by("deadline_at").values_list("game_id", flat=True).distinct()[:limit])
    ended = 0
    for game_id in game_ids:
        with transaction.atomic():
            game = play.game_lock(game_id)
            late = _out_of_time(game, cutoff)
            if game.status != Game.Status.ACTIVE or late is None:
                continue
            play.game_lose_on_time(game=game, seat=late.index, ending=endings.out_of_time(late.index))
            ended += 1
            log.info("game=%s action=abandoned late_seat=%s", game.pk, late.index)
    return ended


def withdraw_stale_seeks() -> int:
    """Correspondence seeks and invitations nobody took in ``SEEK_EXPIRES_AFTER`` are withdrawn."""
    return play.withdraw_correspondence_seeks(created_before=clock.now() - clock.SEEK_EXPIRES_AFTER)


@transaction.atomic
def vacation_start(*, user: AbstractBaseUser, days: int) -> Vacation:
    """Stop ``user``'s correspondence clocks for ``days``: every game waiting on them gets that
    long more, and games that come to them meanwhile start their clock when it ends."""
    at = clock.now()
    vacation, _ = Vacation.objects.select_for_update().get_or_create(user=user)
    if vacation.until and vacation.until > at:
        raise ServiceError("You are on vacation already; end it first to change it.")
    year = clock.vacation_year(at)
    if vacation.year != year:
        vacation.year, vacation.seconds_used = year, 0
    left = clock.VACATION_DAYS_A_YEAR * 86400 - vacation.seconds_used
    if not isinstance(days, int) or days < 1 or days * 86400 > left:
        raise ServiceError(f"You have {left // 86400} vacation days left this year.")
    length = timedelta(days=days)
    vacation.since, vacation.until = at, at + length
    vacation.seconds_used += int(length.total_seconds())
    vacation.save()
    _shift_deadlines(user, length)
    log.info("user=%s action=vacation days=%s", user.pk, days)
    return vacation


@transaction.atomic
def vacation_end(*, user: AbstractBaseUser) -> Vacation:
    """Come back early: the days not used are returned and the clocks run again from now."""
    at = clock.now()
    vacation = Vacation.objects.select_for_update().filter(user=user, until__gt=at).first()
    if vacation is None:
        raise NotAvailable("You are not on vacation.")
    unused = vacation.until - at
    vacation.seconds_used = max(0, vacation.seconds_used - int(unused.total_seconds()))
    vacation.until = at
    vacation.save()
    _shift_deadlines(user, -unused)
    log.info("user=%s action=vacation_end", user.pk)
    return vacation


def _shift_deadlines(user: AbstractBaseUser, by: timedelta) -> None:
    clocks = SeatClock.objects.filter(user=user, deadline_at__isnull=False, game__status=Game.Status.ACTIVE)
    game_ids = list(clocks.values_list("game_id", flat=True))
    clocks.update(deadline_at=F("deadline_at") + by)
    transaction.on_commit(lambda: turn_count.forget_counts([user.pk]))
    play.redraw_boards(game_ids)
