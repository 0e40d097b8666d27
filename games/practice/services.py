"""Every change to a player's counting record, each in a transaction with the record's row locked."""

from __future__ import annotations

from django.db import transaction

from games.practice.models import CountingRecord
from games.practice.record import Record


class PracticeError(Exception):
    """A refused count; ``status`` is the HTTP status a view answers with."""

    status = 400


class AlreadyCounted(PracticeError):
    status = 409


def _value(row: CountingRecord) -> Record:
    return Record(row.counted, row.right, row.streak, row.best_streak, row.level)


def _store(row: CountingRecord, record: Record, **extra) -> None:
    for name, value in {**record.as_dict(), **extra}.items():
        setattr(row, name, value)
    row.save()


def record_of(user) -> Record:
    row = CountingRecord.objects.filter(user=user).first()
    return Record() if row is None else _value(row)


def record_data(user) -> dict | None:
    """The player's record as their data download gives it; None if they never practised."""
    row = CountingRecord.objects.filter(user=user).first()
    if row is None:
        return None
    return {**_value(row).as_dict(), "updated_at": row.updated_at.isoformat()}


def _locked(user) -> CountingRecord:
    CountingRecord.objects.get_or_create(user=user)
    return CountingRecord.objects.select_for_update().get(user=user)


def count_recorded(*, user, hand: str, right: bool) -> Record:
    """One hand counted by ``user``. ``hand`` names the deal; the same hand is counted once, even
    from two tabs at once (the row lock, then the name kept on the row)."""
    with transaction.atomic():
        row = _locked(user)
        if row.last_hand == hand:
            raise AlreadyCounted("That hand is counted already.")
        record = _value(row).after(right)
        _store(row, record, last_hand=hand)
    return record


def record_claim(*, user, visitor: Record) -> Record:
    """A visitor's record, counted in this browser before logging in, joins the account's."""
    with transaction.atomic():
        row = _locked(user)
        record = _value(row).then(visitor)
        _store(row, record)
    return record
