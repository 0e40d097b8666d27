"""The only write path for tournaments. The admin, the views, the forfeit command and the
``game_finished`` listener all come here; games themselves are created and ended only through
``games.play.services`` (a forfeit is the absent player's resignation, made on their behalf).

Every function runs in a transaction that locks the tournament row first, so two games finishing at
once advance a round only once, and pushes ``tournament.changed`` after commit. What follows from a
result (the next round, the playoff, the champion) is ``progress``'s alone; what the services, the
desk and the pages read is in ``games.tournaments.selectors``.
"""


from games.tournaments.services.announcements import ANNOUNCEMENT_LENGTH, tournament_announce
from games.tournaments.services.entered_results import (
    Entry,
    ResultErrors,
    match_set_result,
    parse_scores,
    proposed_result,
    round_set_results,
)
from games.tournaments.services.entrants import (
    UnknownPlayers,
    entrant_add,
    entrant_remove,
    entrant_withdraw,
    entrants_add_many,
    entrants_import,
    entrants_record_cut,
    player_renamed,
    seed_entrants,
    tournament_register,
    tournament_unregister,
)
from games.tournaments.services.errors import (
    NotAllowed,
    NotNow,
    TournamentError,
)
from games.tournaments.services.forfeits import (
    ForfeitCheck,
    apply_due_forfeits,
    forfeit_check,
    match_claim_forfeit,
    match_extend,
    match_forfeit,
)
from games.tournaments.services.listeners import (
    on_board_served,
    on_deal_started,
    on_game_finished,
    on_player_arrived,
)
from games.tournaments.services.steps import (
    tournament_advance,
    tournament_cancel,
    tournament_pause,
    tournament_resume,
    tournament_start,
    tournament_start_playoff,
)

__all__ = [
    "ANNOUNCEMENT_LENGTH",
    "Entry",
    "ForfeitCheck",
    "NotAllowed",
    "NotNow",
    "ResultErrors",
    "TournamentError",
    "UnknownPlayers",
    "apply_due_forfeits",
    "entrant_add",
    "entrant_remove",
    "entrant_withdraw",
    "entrants_add_many",
    "entrants_import",
    "entrants_record_cut",
    "forfeit_check",
    "match_claim_forfeit",
    "match_extend",
    "match_forfeit",
    "match_set_result",
    "on_deal_started",
    "on_game_finished",
    "on_board_served",
    "on_player_arrived",
    "parse_scores",
    "player_renamed",
    "proposed_result",
    "round_set_results",
    "seed_entrants",
    "tournament_advance",
    "tournament_announce",
    "tournament_cancel",
    "tournament_pause",
    "tournament_register",
    "tournament_resume",
    "tournament_start",
    "tournament_start_playoff",
    "tournament_unregister",
]
