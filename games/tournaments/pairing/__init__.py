"""Pairings and standings for tournaments: pure Python, no Django, no clock, no I/O.

Round robin by the circle method (a bye for an odd count, each player sits out once), qualifying
rounds paired one at a time by standing or at random without a rematch (``pair_round``), seeded
single-elimination brackets (byes to the top seeds, up to the next power of two), the ACC's
qualifying points, the standings order with the director's tie-breaks, and who is already sure
to qualify (or not) while the qualifying goes on.

>>> round_robin(["a", "b", "c", "d"])[0]
[('a', 'd'), ('c', 'b')]
>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_round(["s1", "s2", "s3"])
[('s1', None), ('s2', 's3')]
"""

from __future__ import annotations

from .knockout import bracket_order, bracket_rounds, feeds, first_round, next_power_of_two, round_name
from .no_rematch import PairingError, max_rounds, pair_round, safe_rounds
from .playoff_places import Qualification, qualification
from .roundrobin import P, round_robin
from .scoring import Scoring, game_spread, qualifier_count
from .standings import ACC_ORDER, CRITERIA, ByeCredit, MatchResult, Standing, card_rank, standings

__all__ = [
    "ACC_ORDER",
    "CRITERIA",
    "ByeCredit",
    "MatchResult",
    "P",
    "PairingError",
    "Qualification",
    "Scoring",
    "Standing",
    "bracket_order",
    "bracket_rounds",
    "card_rank",
    "feeds",
    "first_round",
    "game_spread",
    "max_rounds",
    "next_power_of_two",
    "pair_round",
    "qualification",
    "qualifier_count",
    "round_name",
    "round_robin",
    "safe_rounds",
    "standings",
]
