"""The only write path for the correspondence app's tables: the clocks kept with each move, run
out, claimed or extended, and stopped by a vacation (``clocks``, ``keeping``); a player's choices
and the notices sent (``notices``)."""

from games.correspondence.services.clocks import (
    end_abandoned,
    game_claim_on_time,
    game_give_time,
    vacation_end,
    vacation_start,
    withdraw_stale_seeks,
)
from games.correspondence.services.keeping import start_clocks, update_clocks
from games.correspondence.services.notices import (
    NOTICE_SEND_KEPT,
    claim_out_of_time_notice,
    claim_turn_notice,
    digests_sent,
    notice_decided,
    notice_email_done,
    notice_pushed,
    notice_sends_forget,
    preferences_of,
    preferences_save,
    unsubscribe,
)

__all__ = [
    "NOTICE_SEND_KEPT", "claim_out_of_time_notice", "claim_turn_notice", "digests_sent", "end_abandoned",
    "game_claim_on_time", "game_give_time", "notice_decided", "notice_email_done", "notice_pushed",
    "notice_sends_forget", "preferences_of", "preferences_save", "start_clocks", "unsubscribe",
    "update_clocks", "vacation_end", "vacation_start", "withdraw_stale_seeks",
]
