"""A player's place in the counting trainer, kept in their session: the seed their hands are dealt
from, the number of the hand waiting for a count and its level, the last hand counted (to show it
again after a reload), and a visitor's record until they sign up or log in."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from django.db import DatabaseError, transaction
from django.http import HttpRequest

from games.engine.count_check import CountCheck, check_count
from games.engine.scoring import ShowScore
from games.practice import services
from games.practice.levels import Deal, Level, deal, level_of
from games.practice.record import Record
from games.practice.services import AlreadyCounted, PracticeError

KEY = "practice.counting"
MAX_COUNT = 29

log = logging.getLogger(__name__)


class Stale(AlreadyCounted):
    """A count for a hand that is not the one waiting: counted already, or never dealt."""


@dataclass(frozen=True)
class Hand:
    number: int
    level: Level
    deal: Deal

    @property
    def score(self) -> ShowScore:
        return self.deal.score


# Where the points a count missed may be, when one kind's points are just what was missed.
KIND_WORDS = {"fifteen": ("the fifteens", "are"), "pair": ("the pairs", "are"), "run": ("the runs", "are"),
              "flush": ("the flush", "is"), "nobs": ("his nobs", "is")}


@dataclass(frozen=True)
class Counted:
    hand: Hand
    check: CountCheck
    record: Record

    @property
    def next_level(self) -> Level | None:
        """The level the next hand is dealt at, when this count moved the player to another."""
        level = level_of(self.record.level)
        return None if level.number == self.hand.level.number else level

    @property
    def advice(self) -> str:
        """What to look at again, in words; empty for a right count."""
        check = self.check
        if check.over:
            return (f"You counted {check.over} point{'s' if check.over > 1 else ''} too many: the items "
                    "below are all the hand holds.")
        if not check.missed:
            return ""
        words = f"You missed {check.missed} point{'s' if check.missed > 1 else ''}."
        if check.missed_kinds:
            (first, verb), *others = (KIND_WORDS[k] for k in check.missed_kinds)
            more = "".join(f", or {noun}" for noun, _ in others)
            words += f" That is just what {first} {verb} worth{more}: look there first."
        return words


def _state(request: HttpRequest) -> dict:
    state = request.session.get(KEY)
    if not isinstance(state, dict) or not isinstance(state.get("seed"), str) or \
            not isinstance(state.get("number"), int) or not isinstance(state.get("level"), int):
        state = {"seed": secrets.token_hex(8), "number": 1, "level": record_for(request).level,
                 "visitor": (state or {}).get("visitor") if isinstance(state, dict) else None}
        _save(request, state)
    return state


def _save(request: HttpRequest, state: dict) -> None:
    request.session[KEY] = state
    request.session.modified = True


def _hand(state: dict, number: int, level: int) -> Hand:
    return Hand(number, level_of(level), deal(state["seed"], number, level))


def record_for(request: HttpRequest) -> Record:
    if request.user.is_authenticated:
        return services.record_of(request.user)
    state = request.session.get(KEY)
    return Record.from_dict(state.get("visitor") if isinstance(state, dict) else None)


def current(request: HttpRequest) -> Hand:
    """The hand waiting for a count: the same on every reload until it is counted."""
    state = _state(request)
    return _hand(state, state["number"], state["level"])


def last(request: HttpRequest, number: int) -> Counted | None:
    """Hand ``number`` with its count, if it is the last hand counted in this browser."""
    state = _state(request)
    done = state.get("last")
    if not isinstance(done, dict) or done.get("number") != number:
        return None
    hand = _hand(state, number, done["level"])
    check = check_count(done["claimed"], hand.score.total, hand.score.by_kind)
    return Counted(hand, check, record_for(request))


def parse_points(value: str) -> int:
    try:
        points = int(value.strip())
    except (AttributeError, ValueError):
        points = -1
    if not 0 <= points <= MAX_COUNT:
        raise PracticeError(f"Count the hand as a whole number of points, from 0 to {MAX_COUNT}.")
    return points


def count(request: HttpRequest, *, number: str, points: str) -> Counted:
    """The player's count of hand ``number``: checked against the hand the server dealt (the form
    names the hand, never its cards), recorded, and the next hand dealt at the level it earns."""
    state = _state(request)
    if str(number).strip() != str(state["number"]):
        raise Stale("That count is not for the hand waiting here (it was counted already, or the page "
                    "is out of date): here is the hand to count now.")
    claimed = parse_points(points)
    hand = _hand(state, state["number"], state["level"])
    check = check_count(claimed, hand.score.total, hand.score.by_kind)
    if request.user.is_authenticated:
        name = f"{state['seed']}:{hand.number}"
        try:
            record = services.count_recorded(user=request.user, hand=name, right=check.right)
        except AlreadyCounted as e:
            raise Stale(str(e)) from e
    else:
        record = record_for(request).after(check.right)
        state["visitor"] = record.as_dict()
    state.update(last={"number": hand.number, "level": hand.level.number, "claimed": claimed},
                 number=hand.number + 1, level=record.level)
    _save(request, state)
    return Counted(hand, check, record)


def claim_on_login(sender, request, user, **kwargs) -> None:
    """A visitor's record joins the account at sign-up or log-in. A fault here must not cost the
    player their log-in: it is undone in its own savepoint and logged, and the record stays in the
    session to be moved at the next log-in."""
    if request is None or not hasattr(request, "session"):
        return
    state = request.session.get(KEY)
    if not isinstance(state, dict):
        return
    visitor = Record.from_dict(state.get("visitor"))
    if not visitor.counted:
        return
    try:
        with transaction.atomic():
            services.record_claim(user=user, visitor=visitor)
    except DatabaseError:
        log.exception("counting record not moved to user=%s", user.pk)
        return
    # The hand on the table stays as dealt; the next is dealt at the level the joined record earns.
    state["visitor"] = None
    _save(request, state)
