"""The only write path for tournaments. The admin, the views, the forfeit command and the
``game_finished`` listener all come here; games themselves are created and ended only through
``games.play.services`` (a forfeit is the absent player's resignation, made on their behalf).

Every function runs in a transaction that locks the tournament row first, so two games finishing at
once advance a round only once, and pushes ``tournament.changed`` after commit.
"""


from games.tournaments.services.common import (
    games_to_win,
    rating_function,
    seeding_order,
    standings,
)
from games.tournaments.services.entrants import (
    entrant_add,
    entrant_remove,
    entrant_withdraw,
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
from games.tournaments.services.outcomes import (
    match_set_result,
    on_deal_started,
    on_game_finished,
)
from games.tournaments.services.rounds import (
    tournament_advance,
    tournament_cancel,
    tournament_start,
)

__all__ = [
    "ForfeitCheck",
    "NotAllowed",
    "NotNow",
    "TournamentError",
    "apply_due_forfeits",
    "entrant_add",
    "entrant_remove",
    "entrant_withdraw",
    "forfeit_check",
    "games_to_win",
    "match_claim_forfeit",
    "match_extend",
    "match_forfeit",
    "match_set_result",
    "on_deal_started",
    "on_game_finished",
    "rating_function",
    "seed_entrants",
    "seeding_order",
    "standings",
    "tournament_advance",
    "tournament_cancel",
    "tournament_register",
    "tournament_start",
    "tournament_unregister",
]
