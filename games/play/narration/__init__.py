"""Events in words, for the person reading them: "Pair for 2", "Ace is low: you deal", "alice wins 121–97".

The engine says what happened as data (``games.engine.events.Event``: a kind, a seat, points, cards
and the numbers a sentence needs); the site's own moves (a timeout, a claimed win) are notes of the
same shape (``games.play.endings``). This is the one place either becomes words: the board and its
log, the replay, the game record and the text export all read them here. A player reads their own
seat as "You" (and a partnership as "You & carol"); a spectator (no viewer) reads every name.

Who reads, and the words for the people at the table, are ``seating``'s; a game's or a match's
result in words is ``results``'; each event as a line of the log, and a logged action, ``lines``'.

>>> seating = Seating(("You", "bob"), viewer=0)
>>> line(seating, {"seat": 1, "kind": "deal", "points": 0, "cards": []}).text
'bob deals'
>>> line(seating, {"seat": 0, "kind": "play", "points": 0, "cards": ["5H"], "count": 15}).text
'Five of hearts: 15'
>>> line(seating, {"seat": 0, "kind": "game_won", "points": 0, "cards": [], "scores": [121, 87],
...              "skunks": [0, 1], "detail": "target"}).text
'You win 121–87 (skunk)'
"""

from __future__ import annotations

from .lines import LogLine, action_words, line, log_lines, reworded, score_words
from .results import ENTERED_MARK, ResultLine, ending_words, match_line, result_line, skunked
from .seating import (
    Seating,
    Who,
    and_list,
    on_board,
    said,
    scores_line,
    seat_name,
    seat_who,
    side_name,
    side_names,
    side_who,
    verb,
)

__all__ = [
    "ENTERED_MARK", "LogLine", "ResultLine", "Seating", "Who", "action_words", "and_list", "ending_words",
    "line", "log_lines", "match_line", "on_board", "result_line", "reworded", "said", "score_words",
    "scores_line", "seat_name", "seat_who", "side_name", "side_names", "side_who", "skunked", "verb",
]
