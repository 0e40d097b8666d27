"""Tournaments: entrants, matches (one Game each, best of N inside it) and a public notice board.

Only ``games.tournaments.services`` changes a tournament once it has started; the admin and the
director's desk call them.
"""

from games.tournaments.models.matches import Entrant, EntrantQuerySet, Match, ResultChange
from games.tournaments.models.notices import Notice
from games.tournaments.models.tournament import (
    ACC_TIE_BREAKS,
    MATCH_LENGTH_CHOICES,
    MOST_QUALIFYING_GAMES,
    TIE_BREAK_WORDS,
    Tournament,
    TournamentQuerySet,
)

__all__ = [
    "ACC_TIE_BREAKS",
    "MATCH_LENGTH_CHOICES",
    "MOST_QUALIFYING_GAMES",
    "TIE_BREAK_WORDS",
    "Entrant",
    "EntrantQuerySet",
    "Match",
    "Notice",
    "ResultChange",
    "Tournament",
    "TournamentQuerySet",
]
