"""The only write path for games. One function per state change, each in a transaction that locks
the game row, checks who acts and the version they saw, asks the engine, appends to the Move log,
saves the new snapshot with ``version + 1`` and pushes ``{game, version}`` after commit.

SQLite ignores ``select_for_update``, so the final write is also a compare-and-set on ``version``.
A move sent from an older version is refused as stale, except where everyone acts at once (the cut
for deal, laying away) and only other seats' actions of that kind came in between.
"""

from games.play.services.chat import game_say
from games.play.services.core import FINISHED_PHASES, Outcome, load_state, redraw_boards, rounds_summarise
from games.play.services.endings import (
    ABORTED_EVENT,
    ORGANISED_REFUSAL,
    abort_refusal,
    game_abort,
    game_claim_win,
    game_lock,
    game_lose_on_time,
    game_timeout,
    withdraw_correspondence_seeks,
)
from games.play.services.errors import (
    AlreadyMade,
    IllegalMove,
    NotAPlayer,
    NotAvailable,
    RateLimited,
    RematchWaiting,
    ServiceError,
    StaleVersion,
)
from games.play.services.lobby import (
    game_accept,
    game_create_between,
    game_create_seek,
    game_create_table,
    game_create_vs_computer,
    game_decline,
    game_leave,
    game_rematch,
    game_withdraw,
    organiser_notice,
    organiser_start_turn_timer,
    rematch_in_play,
    rematch_offer,
    table_rematch_waiting,
)
from games.play.services.moves import (
    BAD_CARD_MESSAGE,
    SIMULTANEOUS_ACTIONS,
    STALE_MESSAGE,
    computer_to_act,
    computers_left_waiting,
    game_act,
    game_computer_step,
    game_computer_turns,
    parse_action,
    play_computer_turns,
)
from games.play.services.pass_play import game_cover_hands, game_create_pass_and_play, game_show_hand
from games.play.services.results import game_enter_result

__all__ = [
    "ABORTED_EVENT", "BAD_CARD_MESSAGE", "FINISHED_PHASES", "ORGANISED_REFUSAL", "SIMULTANEOUS_ACTIONS",
    "STALE_MESSAGE", "AlreadyMade", "IllegalMove", "NotAPlayer", "NotAvailable", "Outcome", "RateLimited",
    "RematchWaiting", "ServiceError", "StaleVersion", "abort_refusal", "computer_to_act",
    "computers_left_waiting", "game_abort",
    "game_accept", "game_act", "game_claim_win", "game_computer_step", "game_computer_turns",
    "game_create_between",
    "game_enter_result", "game_cover_hands", "game_create_pass_and_play",
    "game_show_hand",
    "game_create_seek", "game_create_table", "game_create_vs_computer", "game_decline", "game_leave",
    "game_rematch", "game_say", "game_timeout", "game_withdraw", "load_state", "organiser_notice",
    "organiser_start_turn_timer",
    "parse_action", "play_computer_turns", "redraw_boards", "rematch_in_play", "rematch_offer",
    "table_rematch_waiting", "rounds_summarise", "game_lock", "game_lose_on_time",
    "withdraw_correspondence_seeks",
]
