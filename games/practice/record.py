"""A counting record as a value: the account's row and a visitor's session hold the same numbers,
the level of the next hand among them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.practice.levels import TOP, next_level


@dataclass(frozen=True)
class Record:
    counted: int = 0
    right: int = 0
    streak: int = 0
    best_streak: int = 0
    level: int = 1

    @property
    def accuracy(self) -> int | None:
        """Right counts as a whole percentage; None before the first hand."""
        return round(100 * self.right / self.counted) if self.counted else None

    def after(self, right: bool) -> Record:
        """The record after one more hand.

        >>> Record().after(True).after(True).after(False).after(True)
        Record(counted=4, right=3, streak=1, best_streak=2, level=1)
        >>> Record().after(True).after(True).after(True).level
        2
        """
        streak = self.streak + 1 if right else 0
        counted, right_count = self.counted + 1, self.right + int(right)
        level = next_level(self.level, right=right, streak=streak, counted=counted, right_count=right_count)
        return Record(counted, right_count, streak, max(self.best_streak, streak), level)

    def then(self, later: Record) -> Record:
        """This record followed by ``later`` (a visitor's, counted after it): the hands add up, and a
        streak the visitor never broke carries on from this one. The higher of the two levels stays.

        >>> Record(10, 9, 4, 6, 3).then(Record(3, 3, 3, 3, 2))
        Record(counted=13, right=12, streak=7, best_streak=7, level=3)
        >>> Record(10, 9, 4, 6, 3).then(Record(3, 2, 1, 1, 1))
        Record(counted=13, right=11, streak=1, best_streak=6, level=3)
        """
        if not later.counted:
            return self
        unbroken = later.streak == later.counted
        streak = self.streak + later.streak if unbroken else later.streak
        best = max(self.best_streak, later.best_streak, streak)
        return replace(self, counted=self.counted + later.counted, right=self.right + later.right,
                       streak=streak, best_streak=best, level=max(self.level, later.level))

    def as_dict(self) -> dict:
        return {"counted": self.counted, "right": self.right, "streak": self.streak,
                "best_streak": self.best_streak, "level": self.level}

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """A record read back from a session; anything malformed is a fresh record."""
        if not isinstance(data, dict):
            return cls()
        try:
            values = [int(data.get(k, 0)) for k in ("counted", "right", "streak", "best_streak")]
            level = int(data.get("level", 1))
        except (TypeError, ValueError):
            return cls()
        counted, right, streak, best = (max(0, v) for v in values)
        right = min(right, counted)
        streak = min(streak, right)
        return cls(counted, right, streak, max(best, streak), max(1, min(TOP, level)))
