"""Forfeits: a player who never moves in their match's game within the grace period loses it."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.play import services as game_services
from games.play.models import Move
from games.tournaments.models import Match, Notice, Tournament
from games.tournaments.services import progress
from games.tournaments.services.common import changed, lock_match, minutes_text, post_notice
from games.tournaments.services.errors import NotAllowed, NotNow, TournamentError

log = logging.getLogger("games.tournaments")

def _seats_moved(game_id: int) -> set[int]:
    return set(Move.objects.filter(game_id=game_id).values_list("seat", flat=True).distinct())


@dataclass(frozen=True)
class ForfeitCheck:
    """Whether a match's game may be claimed: ``absent`` is the side (0/1) that has not moved."""

    due: bool
    absent: int | None
    deadline: datetime | None


def forfeit_check(m: Match, now: datetime | None = None) -> ForfeitCheck:
    now = now or timezone.now()
    deadline = m.forfeit_deadline()
    if m.status != Match.Status.ACTIVE or m.game_id is None or deadline is None:
        return ForfeitCheck(False, None, deadline)
    moved = _seats_moved(m.game_id)
    absent = [side for side in (0, 1) if side not in moved]
    if len(absent) != 1:
        return ForfeitCheck(False, None, deadline)
    return ForfeitCheck(now >= deadline, absent[0], deadline)


def _forfeit(t: Tournament, m: Match, absent: int, note: str, by: AbstractBaseUser | None = None) -> None:
    gone = m.entrant1 if absent == 0 else m.entrant2
    progress.decide(t, m, 1 - absent, Match.Decided.FORFEIT, note, by=by)
    details = {"user": gone.user_id, "users": [m.entrant1.user_id, m.entrant2.user_id], "round": m.round_no}
    post_notice(t, Notice.Kind.FORFEIT, "forfeited", details, reason=note, by=by)
    changed(t)


@transaction.atomic
def match_claim_forfeit(*, user: AbstractBaseUser, match_id: int, now: datetime | None = None) -> Match:
    """A player whose opponent has not made a move within the grace period takes the match."""
    t, m = lock_match(match_id)
    users = [m.entrant1.user_id if m.entrant1_id else None, m.entrant2.user_id if m.entrant2_id else None]
    side = users.index(user.pk) if user.pk in users else None
    if side is None:
        raise NotAllowed("This is not your match.")
    if t.status != Tournament.Status.RUNNING or m.status != Match.Status.ACTIVE:
        raise NotNow("This match is not in play.")
    if t.paused:
        raise NotNow("The director has paused the tournament: no forfeit can be claimed until it resumes.")
    check = forfeit_check(m, now)
    if check.absent is None:
        if side not in _seats_moved(m.game_id):
            raise NotNow("Make your first move (cut for deal) first, so that the site knows you are here.")
        raise NotNow("Your opponent has started the game.")
    if check.absent == side:
        raise NotNow("Make your first move (cut for deal) first, so that the site knows you are here.")
    if not check.due:
        raise NotNow(f"You can claim the game after {timezone.localtime(check.deadline):%H:%M:%S}.")
    minutes = t.forfeit_minutes + m.extra_minutes
    # The players' names when shown (Match.note_text): {1} is entrant 1, {2} entrant 2.
    opponent, claimer = ("{2}", "{1}") if side == 0 else ("{1}", "{2}")
    note = f"{opponent} made no move within {minutes_text(minutes)}; claimed by {claimer}."
    _forfeit(t, m, check.absent, note, by=user)
    return m


@transaction.atomic
def match_forfeit(*, match_id: int, absent_side: int, note: str, by: AbstractBaseUser | None = None) -> Match:
    t, m = lock_match(match_id)
    if t.status != Tournament.Status.RUNNING or m.decided or not (m.entrant1_id and m.entrant2_id):
        raise NotNow("This match is not in play.")
    _forfeit(t, m, absent_side, note, by=by)
    return m


def apply_due_forfeits(*, now: datetime | None = None) -> list[tuple[Match, str]]:
    """Every tournament game whose grace has run out with exactly one player absent is forfeited by
    that player. Returns ``(match, what happened)`` for each match looked at past its deadline."""
    now = now or timezone.now()
    report: list[tuple[Match, str]] = []
    candidates = Match.objects.filter(
        status=Match.Status.ACTIVE,
        tournament__status=Tournament.Status.RUNNING,
        tournament__paused_at__isnull=True,
        started_at__isnull=False,
    ).select_related("tournament", "entrant1__user", "entrant2__user")
    for m in candidates:
        check = forfeit_check(m, now)
        if check.deadline is None or now < check.deadline:
            continue
        if check.absent is None:
            if not _seats_moved(m.game_id):
                report.append((m, "neither player has moved: left to the organiser"))
            continue
        gone = m.entrant1 if check.absent == 0 else m.entrant2
        minutes = m.tournament.forfeit_minutes + m.extra_minutes
        token = "{1}" if check.absent == 0 else "{2}"  # the name when shown (Match.note_text)
        try:
            match_forfeit(
                match_id=m.pk,
                absent_side=check.absent,
                note=f"{token} made no move within {minutes_text(minutes)} (applied by the site).",
            )
        except (TournamentError, game_services.ServiceError) as exc:
            report.append((m, f"skipped: {exc}"))
        else:
            report.append((m, f"{gone.name} forfeits"))
    return report


@transaction.atomic
def match_extend(*, match_id: int, minutes: int, by: AbstractBaseUser | None = None) -> Match:
    t, m = lock_match(match_id)
    if minutes <= 0:
        raise TournamentError("Extend by a positive number of minutes.")
    if m.decided:
        raise NotNow("This match is already decided.")
    m.extra_minutes += minutes
    m.save(update_fields=["extra_minutes"])
    details = {"users": [m.entrant1.user_id if m.entrant1_id else None,
                        m.entrant2.user_id if m.entrant2_id else None], "minutes": minutes}
    post_notice(t, Notice.Kind.DEADLINE, "extended", details, by=by)
    changed(t)
    return m
