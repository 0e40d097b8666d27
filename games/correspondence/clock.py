"""The correspondence clock: days for each move, a time bank, vacation days.

A seat's clock (``SeatClock``) has a deadline only while the seat is to move. When it becomes due:
``deadline = start + days per move + bank``, where ``start`` is now, or the end of the player's
vacation. When it moves, what is left of the deadline beyond the days it had (or nothing) is its
bank from then on: a move made in time keeps the bank whole, a late one draws on it. A vacation
moves every due deadline of the player on by its length, and back by what is left of it when it
ends early. So the deadline alone says whether a player is out of time.

Time is read here (``now``), the one place tests move; never the wall clock in a test.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.utils import timezone

# The bank a player starts a game with, in days per move: a few late moves, not a late game.
BANK_MOVES = 2
VACATION_DAYS_A_YEAR = 21
# After a clock runs out the opponent may claim the win or give more time; left alone that long,
# the game ends by itself, lost on time (abandoned).
ABANDON_AFTER = timedelta(days=3)
# A correspondence seek or invitation nobody took in this long is withdrawn.
SEEK_EXPIRES_AFTER = timedelta(days=14)
DAY = timedelta(days=1)


def now() -> datetime:
    return timezone.now()


def starting_bank(days_per_move: int) -> int:
    return int(timedelta(days=days_per_move * BANK_MOVES).total_seconds())


def deadline_for(days_per_move: int, bank_seconds: int, start: datetime) -> datetime:
    return start + timedelta(days=days_per_move, seconds=bank_seconds)


def bank_after_move(days_per_move: int, bank_seconds: int, deadline: datetime, at: datetime) -> int:
    """The bank left when the seat moves at ``at``: whole if it moved within its days, less what it
    used beyond them, never below zero.

    >>> d = datetime(2026, 1, 4, tzinfo=UTC)
    >>> bank_after_move(1, 86400, d, d - timedelta(days=1, hours=1))  # an hour early: bank kept
    86400
    >>> bank_after_move(1, 86400, d, d - timedelta(hours=6))  # 18 hours late: 6 hours left
    21600
    >>> bank_after_move(1, 86400, d, d + timedelta(hours=1))
    0
    """
    left = int((deadline - at).total_seconds())
    return max(0, min(bank_seconds, left))


def time_left(deadline: datetime | None, at: datetime | None = None) -> timedelta | None:
    if deadline is None:
        return None
    return deadline - (at or now())


def left_words(left: timedelta | None) -> str:
    """Time left in words, coarse as a player reads it.

    >>> left_words(timedelta(days=2, hours=5))
    '2 days 5 hours'
    >>> left_words(timedelta(hours=3, minutes=10))
    '3 hours'
    >>> left_words(timedelta(minutes=4))
    '4 minutes'
    >>> left_words(timedelta(seconds=-5))
    'out of time'
    """
    if left is None:
        return ""
    seconds = int(left.total_seconds())
    if seconds <= 0:
        return "out of time"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = max(1, rest // 60)

    def unit(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour")
    return unit(minutes, "minute")


def until_words(until: datetime) -> str:
    """A moment as the clock's sentences say it, in UTC: ``12 Mar, 10:00 UTC``."""
    return f"{until.astimezone(UTC):%d %b, %H:%M} UTC"


def clock_words(left: timedelta | None, bank: timedelta, *, yours: bool = True,
                vacation_until: datetime | None = None, at: datetime | None = None) -> str:
    """A player's clock at your own pace in one sentence: the board, the list of games, the turn
    email and the digest all say it in these words.

    ``left``: until the seat's deadline (None: not its turn), which holds the bank and any vacation
    still to run; ``bank``: the bank kept from earlier moves. So the days for this move are what is
    left beyond the bank, and once they are gone every hour comes out of the bank.

    >>> day, hour = timedelta(days=1), timedelta(hours=1)
    >>> clock_words(3 * day - hour, 2 * day)
    '23 hours to move; then your bank of 2 days'
    >>> clock_words(day + 5 * hour, 2 * day, yours=False)
    '1 day 5 hours to move, all from their bank'
    >>> clock_words(timedelta(minutes=40), timedelta(0))
    '40 minutes to move; no bank left'
    >>> clock_words(None, 2 * day)
    'waiting, with your bank of 2 days'
    >>> clock_words(-hour, 2 * day)
    'out of time'
    """
    whose = "your" if yours else "their"
    bank_words = f"{whose} bank of {left_words(bank)}" if bank > timedelta(0) else ""
    prefix = ""
    if vacation_until is not None and vacation_until > (at := at or now()):
        prefix = f"on vacation until {until_words(vacation_until)}, the clock stands still; then "
        if left is not None:
            left -= vacation_until - at
    if left is None:
        return prefix + (f"waiting, with {bank_words}" if bank_words else "waiting, with no bank left")
    if left <= timedelta(0):
        return "out of time"
    if left <= bank:
        return prefix + f"{left_words(left)} to move, all from {whose} bank"
    move = left_words(left - bank)
    return prefix + (f"{move} to move; then {bank_words}" if bank_words else f"{move} to move; no bank left")


def vacation_year(at: datetime) -> int:
    return at.astimezone(UTC).year


def same_side(players: int, a: int, b: int) -> bool:
    """Seats ``a`` and ``b`` play for one score: the same seat, or partners at a table of four.

    >>> same_side(4, 0, 2), same_side(4, 0, 1), same_side(3, 0, 2), same_side(2, 1, 1)
    (True, False, False, True)
    """
    return a == b or (players == 4 and a % 2 == b % 2)


def claim_words(players: int) -> str:
    """What a claim on time does, as the board's button and the out-of-time notice say it: at three
    it ends the game for the late player, and the better placed of the others wins.

    >>> claim_words(2), claim_words(3)
    ('claim the win on time', 'end the game on time')
    """
    return "end the game on time" if players == 3 else "claim the win on time"
