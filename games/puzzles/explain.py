"""The puzzle's answer in words: why the best split beats the one chosen and the second best."""

from __future__ import annotations

from games.play.templatetags.cribbage import card_short
from games.puzzles.models import Puzzle

# Within this many points of the target a deal can end the game, and the splits are weighed by
# the chance to win more than by points: about what a deal brings both sides (two hands, a crib, the
# play) is 25 to 30 points.
NEAR_END = 30


def _cards(notation: str) -> str:
    """``5♣ 4♥``, as players write cards."""
    return " ".join(card_short(c) for c in notation.split())


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _pts(x: float) -> str:
    return f"{x:.1f}"


def compare(puzzle: Puzzle, better: dict, worse: dict) -> str:
    """One paragraph: ``better`` against ``worse``, by hand, crib and chance to win."""
    crib_owner = "your crib" if puzzle.is_dealer else "your opponent's crib"
    parts = [f"Laying away {_cards(better['laid_away'])} keeps a hand worth {_pts(better['expected_hand'])} "
             f"points on average, against {_pts(worse['expected_hand'])} after laying away "
             f"{_cards(worse['laid_away'])}."]
    crib_b, crib_w = abs(better["expected_crib"]), abs(worse["expected_crib"])
    parts.append(f"The two cards give {crib_owner} {_pts(crib_b)} points on average, against {_pts(crib_w)}.")
    parts.append(f"In all, {better['net']:+.1f} points against {worse['net']:+.1f} for the deal; "
                 f"a chance to win of {_pct(better['win'])} against {_pct(worse['win'])}.")
    if better["net"] < worse["net"]:
        parts.append(f"{_cards(better['laid_away'])} scores fewer points, yet wins more often at this score.")
    return " ".join(parts)


def score_effect(puzzle: Puzzle) -> str:
    """What the score does to the choice, or nothing far from the end."""
    mine, theirs, target = puzzle.my_score, puzzle.their_score, puzzle.target
    if max(mine, theirs) < target - NEAR_END:
        return ("Far from the end of the game, the chance to win follows the points: the split with the "
                "most points on average is nearly always the one to make.")
    by_points = max(puzzle.table, key=lambda r: r["net"])
    words = [f"At {mine}–{theirs}, {target - mine} to go for you and {target - theirs} for your opponent, "
             "this deal can decide the game."]
    if by_points["laid_away"] != puzzle.best["laid_away"]:
        words.append(f"The split with the most points on average ({_cards(by_points['laid_away'])}, "
                     f"{by_points['net']:+.1f}) is not the one that wins most often: what counts is "
                     "reaching the target first, or keeping your opponent from it.")
    else:
        words.append("Here the split with the most points is also the one that wins most often.")
    return " ".join(words)


def explanation(puzzle: Puzzle, chosen: str | None) -> dict:
    best, second = puzzle.table[0], puzzle.table[1]
    row = next((r for r in puzzle.table if r["laid_away"] == chosen), None)
    return {
        "against_chosen": compare(puzzle, best, row) if row is not None and row is not best else "",
        # Said once when the one chosen was the second best.
        "against_second": compare(puzzle, best, second) if row is not second else "",
        "score": score_effect(puzzle),
    }
