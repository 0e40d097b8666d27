"""A player's choices, an unsubscribe, a turn notice counted and what of it has gone, the digests
marked sent."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F

from games.correspondence.models import NoticePreferences, NoticeSend, OutOfTimeNotice, TurnNotice

# A notice's record outlives every retry of its task (games.queue.retry: about two and a half hours).
NOTICE_SEND_KEPT = timedelta(days=7)


def preferences_of(user_id: int) -> NoticePreferences:
    """The player's choices, the defaults if they never made any (nothing written)."""
    return NoticePreferences.objects.filter(user_id=user_id).first() or NoticePreferences(user_id=user_id)


@transaction.atomic
def preferences_save(*, user, turn_notices: str, digest: bool) -> NoticePreferences:
    if turn_notices not in NoticePreferences.Turn.values:
        raise ValueError("Choose when to hear of your turn.")
    prefs, _ = NoticePreferences.objects.select_for_update().get_or_create(user=user)
    prefs.turn_notices, prefs.digest = turn_notices, digest
    prefs.save(update_fields=["turn_notices", "digest"])
    return prefs


@transaction.atomic
def unsubscribe(*, user_id: int, kind: str) -> NoticePreferences:
    """One click from an email: turn notices ("turn") or the digest ("digest") stop."""
    prefs, _ = NoticePreferences.objects.select_for_update().get_or_create(user_id=user_id)
    if kind == "turn":
        prefs.turn_notices = NoticePreferences.Turn.OFF
    else:
        prefs.digest = False
    prefs.save(update_fields=["turn_notices", "digest"])
    return prefs


def claim_turn_notice(*, game_id: int, user_id: int, day: date, at: datetime, every: bool) -> bool:
    """Whether a turn notice for this game may go to this player now, counted if so: the first of
    the day always, later ones only for a player who asked for every move."""
    try:
        with transaction.atomic():
            TurnNotice.objects.create(game_id=game_id, user_id=user_id, day=day, last_sent_at=at)
        return True
    except IntegrityError:
        if not every:
            return False
    TurnNotice.objects.filter(game_id=game_id, user_id=user_id, day=day).update(
        sent=F("sent") + 1, last_sent_at=at)
    return True


def digests_sent(*, user_ids: list[int], day: date) -> None:
    NoticePreferences.objects.bulk_create([NoticePreferences(user_id=pk) for pk in user_ids],
                                          ignore_conflicts=True)
    NoticePreferences.objects.filter(user_id__in=user_ids).update(digest_sent_on=day)


def claim_out_of_time_notice(*, game_id: int, user_id: int, deadline: datetime, at: datetime) -> bool:
    """Whether this player is still to hear that this deadline passed (counted if so)."""
    try:
        with transaction.atomic():
            OutOfTimeNotice.objects.create(game_id=game_id, user_id=user_id, deadline=deadline, sent_at=at)
    except IntegrityError:
        return False
    return True


def notice_decided(*, key: str, game_id: int, user_id: int, at: datetime,
                   due: Callable[[], bool]) -> NoticeSend:
    """The turn notice ``key``: ``due()`` asked (and the notice counted) the first time only, with
    the record written in the same transaction; as kept after."""
    kept = NoticeSend.objects.filter(key=key).first()
    if kept is not None:
        return kept
    try:
        with transaction.atomic():
            return NoticeSend.objects.create(key=key, game_id=game_id, user_id=user_id, decided_at=at,
                                             due=due())
    except IntegrityError:  # decided at this moment by another run of the same task
        return NoticeSend.objects.get(key=key)


def notice_email_done(*, send: NoticeSend) -> None:
    send.email_done = True
    NoticeSend.objects.filter(pk=send.pk).update(email_done=True)


def notice_pushed(*, send: NoticeSend, subscription_ids: list[int]) -> None:
    send.pushed = [*send.pushed, *subscription_ids]
    NoticeSend.objects.filter(pk=send.pk).update(pushed=send.pushed)


def notice_sends_forget(*, before: datetime) -> int:
    """Forget the records of notices decided before ``before`` (their tasks are long over)."""
    return NoticeSend.objects.filter(decided_at__lt=before).delete()[0]
