"""The ACC's qualifying points for a game, a game's point spread and how many qualify."""

from __future__ import annotations

import math
from dataclasses import dataclass


def qualifier_count(entrants: int, chosen: int | None = None) -> int:
    """How many go on to the playoff: ``chosen`` if set, else the top quarter rounded up; at least
    two (a final) and never more than the entrants.

    >>> qualifier_count(5), qualifier_count(16), qualifier_count(17), qualifier_count(5, 3)
    (2, 4, 5, 3)
    """
    wanted = chosen if chosen else math.ceil(entrants / 4)
    return max(2, min(wanted, entrants)) if entrants >= 2 else entrants


@dataclass(frozen=True)
class Scoring:
    """Qualifying points for a game won: ACC: 2, a skunk 3, a double skunk a setting (default 3).
    A loss scores 0. A triple skunk counts as a double."""

    win: int = 2
    skunk: int = 3
    double_skunk: int = 3

    def game_points(self, skunk: int) -> int:
        """Points for winning a game with skunk level ``skunk`` (0 none, 1, 2 double, 3 triple).

        >>> Scoring().game_points(0), Scoring().game_points(1), Scoring(double_skunk=4).game_points(3)
        (2, 3, 4)
        """
        if skunk <= 0:
            return self.win
        return self.skunk if skunk == 1 else self.double_skunk

    def most_match_points(self, match_games: int = 1) -> int:
        """The most points one player can take from a match of ``match_games`` (best of): every
        game they need to win it, each a double skunk.

        >>> Scoring().most_match_points(), Scoring(double_skunk=4).most_match_points(3)
        (3, 8)
        """
        return (match_games // 2 + 1) * max(self.win, self.skunk, self.double_skunk)


def game_spread(target: int, loser_score: int) -> int:
    """The winner's point spread for one game (the loser gets the negative): the winner counts as
    having reached the target exactly, so going out with a 29 hand earns no extra spread.

    >>> game_spread(121, 100), game_spread(121, 0), game_spread(61, 50)
    (21, 121, 11)
    """
    return max(0, target - loser_score)
