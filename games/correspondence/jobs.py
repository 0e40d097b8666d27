"""The periodic jobs of games at your own pace (``settings.SCHEDULE``, run by the task worker)."""

from __future__ import annotations

from datetime import datetime

from cribsite import origin
from games.correspondence import services
from games.correspondence.notices import send_out_of_time_notices
from games.correspondence.tasks import daily_digest
from games.play import services as play


def keep_clocks(slot: datetime) -> str:
    """Tell players an opponent ran out of time (once a deadline), end the games left out of time,
    withdraw the seeks nobody took and send again for the computer's turns in games left waiting on
    it: each looks at what is due now, so a run late catches up."""
    told = send_out_of_time_notices()
    ended = services.end_abandoned()
    withdrawn = services.withdraw_stale_seeks()
    computers = play.computers_left_waiting()
    return (f"told of an opponent out of time: {told}; games ended as abandoned: {ended}; "
            f"seeks withdrawn: {withdrawn}; computers sent for again: {computers}")


def send_digest(slot: datetime) -> str:
    """The daily summary of the day of ``slot`` (a second run that day sends none again)."""
    return f"{daily_digest.call(slot.date().isoformat(), origin.for_task())} sent"
