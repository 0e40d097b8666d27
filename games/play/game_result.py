"""A finished game's result as every screen shows it: the one reading of ``Game.result``.

A game ends on the board (the engine's results, by side: ``games``, ``match_scores``) or by a result
the director entered (a tournament match played on paper, or corrected afterwards). The engine's
log cannot hold an entered result (a replay checks every event against it), so it is kept beside,
in ``Game.result["entered"]`` (written by ``services.results.game_enter_result``), and
:func:`final_result` puts it in place of the game's own: the board, the lobby, the lists, the
record, the replay, the downloads, the statistics and the ratings all read it here, and mark it
with ``entered``.

>>> final_result_of({"scores": [0, 0], "match_scores": [1, 0], "games": [], "entered": {
...     "winner": 1, "match_scores": [1, 2], "games": []}})["match_scores"]
[1, 2]
"""

from __future__ import annotations

from games.engine.rules import HouseRules
from games.engine.working_copy import skunk_level

ENTERED = "entered"  # a game's ``reason`` when the director entered it


def final_result_of(result: dict | None, winner_seat: int | None = None) -> dict | None:
    """``Game.result`` as shown: the entered result in place of the board's, with ``entered``
    (True or False), ``winner`` (the side that won the match: ``winner_seat`` for one played out)
    and ``games`` (each game's; an entered game's ``scores`` are empty when the director gave none)."""
    if not result:
        return None
    entered = result.get(ENTERED)
    if not entered:
        return {**result, "entered": False, "winner": winner_seat}
    games = entered["games"]
    return {
        **result,
        "scores": list(games[-1]["scores"]) if games else [],
        "match_scores": list(entered["match_scores"]),
        "games": games,
        "entered": True,
        "winner": entered["winner"],
    }


def final_result(game) -> dict | None:
    """``game``'s result as every screen shows it (None until it is finished)."""
    return final_result_of(game.result, game.winner_seat)


def is_entered(game) -> bool:
    return bool((game.result or {}).get(ENTERED))


def entered_result(rules: HouseRules, winner: int, match_scores, scores) -> dict:
    """What ``Game.result["entered"]`` holds: the winning side, the games each side won and, where
    the director gave them, each game's scores by side (each game judged for skunks as the engine
    judges one, on the game's rules)."""
    games = []
    for number, game_scores in enumerate(scores):
        game_scores = [int(s) for s in game_scores]
        won = max(range(len(game_scores)), key=lambda s: game_scores[s])
        skunks = [0 if s == won else skunk_level(rules, score) for s, score in enumerate(game_scores)]
        losing = min(score for s, score in enumerate(game_scores) if s != won)
        games.append({
            "game_no": number, "winner": won, "scores": game_scores, "loser_score": losing,
            "skunk": max(skunks), "value": 1 << max(skunks), "reason": ENTERED, "skunks": skunks,
        })
    return {"winner": winner, "match_scores": [int(n) for n in match_scores], "games": games}
