"""A player's record: the streak (days in a row answered on the day) and agreement with the engine."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import QuerySet

from games.puzzles import clock
from games.puzzles.models import Vote


def votes_of(*, user=None, browser: str = "") -> QuerySet[Vote]:
    if user is not None and user.is_authenticated:
        return Vote.objects.filter(user=user)
    if browser:
        return Vote.objects.filter(browser=browser, user=None)
    return Vote.objects.none()


@dataclass(frozen=True)
class Record:
    streak: int
    longest: int
    answered: int
    agreed: int

    @property
    def agreement(self) -> int | None:
        """Per cent of answers that were the engine's best split."""
        return round(100 * self.agreed / self.answered) if self.answered else None


def streaks(days: set[date], today: date) -> tuple[int, int]:
    """The current streak (ending today, or yesterday while today's is still open) and the longest.

    >>> d = date(2026, 3, 10)
    >>> streaks({d, d - timedelta(1), d - timedelta(2), d - timedelta(5)}, d)
    (3, 3)
    >>> streaks({d - timedelta(1)}, d), streaks({d - timedelta(2)}, d)
    ((1, 1), (0, 1))
    """
    longest = run = 0
    previous = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == timedelta(1) else 1
        longest = max(longest, run)
        previous = day
    current = 0
    day = today if today in days else today - timedelta(1)
    while day in days:
        current += 1
        day -= timedelta(1)
    return current, longest


def answers_data(user) -> list[dict]:
    """A player's answers for their data download: the day's deal, their split and the engine's."""
    votes = Vote.objects.filter(user=user).select_related("puzzle").order_by("puzzle__day")
    return [{
        "day": v.puzzle.day.isoformat(), "hand": v.puzzle.hand, "dealer": v.puzzle.is_dealer,
        "score": v.puzzle.my_score, "opponent_score": v.puzzle.their_score, "target": v.puzzle.target,
        "laid_away": v.laid_away, "engine_laid_away": v.puzzle.best["laid_away"], "agreed": v.agreed,
        "on_day": v.on_day, "answered_at": v.created_at.isoformat(),
    } for v in votes]


def record_of(*, user=None, browser: str = "") -> Record:
    votes = votes_of(user=user, browser=browser)
    on_day = set(votes.filter(on_day=True).values_list("puzzle__day", flat=True))
    current, longest = streaks(on_day, clock.today())
    return Record(current, longest, votes.count(), votes.filter(agreed=True).count())
