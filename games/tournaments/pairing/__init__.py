"""Pairings and standings for tournaments: pure Python, no Django, no clock, no I/O.

Round robin by the circle method (a bye for an odd count, each player sits out once), seeded
single-elimination brackets (byes to the top seeds, up to the next power of two), the ACC's
qualifying points and the standings order with its tie-breaks.

>>> round_robin(["a", "b", "c", "d"])[0]
[('a', 'd'), ('c', 'b')]
>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_round(["s1", "s2", "s3"])
[('s1', None), ('s2', 's3')]
"""

from __future__ import annotations

from .knockout import bracket_order, bracket_rounds, feeds, first_round, next_power_of_two, round_name
from .roundrobin import P, round_robin
from .scoring import Scoring, game_spread, qualifier_count
from .table import ACC_ORDER, CRITERIA, ByeCredit, MatchResult, Standing, card_rank, standings

__all__ = [
    "ACC_ORDER",
    "CRITERIA",
    "ByeCredit",
    "MatchResult",
    "P",
    "Scoring",
    "Standing",
    "bracket_order",
    "bracket_rounds",
    "card_rank",
    "feeds",
    "first_round",
    "game_spread",
    "next_power_of_two",
    "qualifier_count",
    "round_name",
    "round_robin",
    "standings",
]
