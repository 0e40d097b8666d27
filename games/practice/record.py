"""A counting record as a value: the account's row and a visitor's session hold the same four
numbers, and the level follows from them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.practice.levels import level_for


@dataclass(frozen=True)
class Record:
    counted: int = 0
    right: int = 0
    streak: int = 0
    best_streak: int = 0

    @property
    def accuracy(self) -> int | None:
        """Right counts as a whole percentage; None before the first hand."""
        return round(100 * self.right / self.counted) if self.counted else None

    @property
    def level(self) -> int:
        return level_for(streak=self.streak, counted=self.counted, right=self.right)

    def after(self, right: bool) -> Record:
        """The record after one more hand.

        >>> Record().after(True).after(True).after(False).after(True)
        Record(counted=4, right=3, streak=1, best_streak=2)
        """
        streak = self.streak + 1 if right else 0
        return Record(self.counted + 1, self.right + int(right), streak, max(self.best_streak, streak))

    def then(self, later: Record) -> Record:
        """This record followed by ``later`` (a visitor's, counted after it): the hands add up, and a
        streak the visitor never broke carries on from this one.

        >>> Record(10, 9, 4, 6).then(Record(3, 3, 3, 3))
        Record(counted=13, right=12, streak=7, best_streak=7)
        >>> Record(10, 9, 4, 6).then(Record(3, 2, 1, 1))
        Record(counted=13, right=11, streak=1, best_streak=6)
        """
        if not later.counted:
            return self
        unbroken = later.streak == later.counted
        streak = self.streak + later.streak if unbroken else later.streak
        best = max(self.best_streak, later.best_streak, streak)
        return replace(self, counted=self.counted + later.counted, right=self.right + later.right,
                       streak=streak, best_streak=best)

    def as_dict(self) -> dict:
        return {"counted": self.counted, "right": self.right, "streak": self.streak,
                "best_streak": self.best_streak}

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """A record read back from a session; anything malformed is a fresh record."""
        if not isinstance(data, dict):
            return cls()
        try:
            values = [int(data.get(k, 0)) for k in ("counted", "right", "streak", "best_streak")]
        except (TypeError, ValueError):
            return cls()
        counted, right, streak, best = (max(0, v) for v in values)
        right = min(right, counted)
        streak = min(streak, right)
        return cls(counted, right, streak, max(best, streak))
