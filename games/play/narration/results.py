"""A game's and a match's result in words, for one reader: the one wording of a result for the log,
the board, the replay and the record ("alice wins 121–97 (skunk)", "You win the match 2–1")."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.state import SKUNK_NAMES
from games.play import endings

from .seating import DASH, Seating, Who, on_board, scores_line, side_name, side_who, verb

ENTERED_MARK = "entered by the director"


@dataclass(frozen=True)
class ResultLine:
    """A game's result for one reader: ``who`` won and the ``words`` that follow ("wins 121–97
    (skunk)"); as text, the two together."""

    who: str
    words: str

    def __str__(self) -> str:
        return f"{self.who} {self.words}"


def result_line(
    seating: Seating, winner: int, scores, reason: str, *, skunks=(), ending: dict | None = None,
    how: str = "", entered: bool = False, past: bool = False, score_beside: bool = False,
) -> ResultLine:
    """A game's result in words: the one wording of it for the log, the board's result, the replay
    and the record. The winner's score comes first, at the game hole.

    ``reason``: "target" (played out) or "resign". After a resignation the winner may have been
    behind, so it says who led; ``ending`` (``games.play.endings``): the site ended the game for
    the loser, and it says why. ``how``: the organiser's own word for a match decided off the
    board ("by forfeit"). ``entered``: the director entered the result (``scores`` may then be
    empty: not given). ``past``: "won", for the record; ``score_beside``: the final score is
    printed beside the line, so the line does not say it, nor who led before a resignation.

    >>> bob = Seating(("alice", "bob"))
    >>> str(result_line(bob, 0, [121, 87], "target", skunks=[0, 1]))
    'alice wins 121–87 (skunk)'
    >>> str(result_line(Seating(("You", "bob"), 0), 0, [25, 28], "resign"))
    'You win by resignation (bob led 28–25)'
    >>> str(result_line(Seating(("alice", "You"), 1), 0, [40, 60], "resign", past=True))
    'alice won by resignation (you led 60–40)'
    >>> str(result_line(bob, 1, [97, 121], "resign", entered=True))
    'bob wins 121–97 (entered by the director)'
    >>> str(result_line(bob, 0, [25, 28], "resign", ending={"how": "time", "seat": 1, "timeouts": 3}))
    'alice wins on time (3 timeouts)'
    >>> str(result_line(bob, 0, [121, 87], "target", skunks=[0, 1], past=True, score_beside=True))
    'alice won (skunk)'
    """
    who = side_who(seating, winner, start=True)
    word = "won" if past else verb(who, "wins")
    score = "" if score_beside or not scores else f" {scores_line(on_board(scores, seating.target), winner)}"
    if entered:
        notes = [_skunk_note(seating, winner, skunks) if scores else "", ENTERED_MARK]
        return ResultLine(who.text, f"{word}{score} ({', '.join(n for n in notes if n)})")
    if how:
        return ResultLine(who.text, f"{word} {how}")
    if reason == "resign":
        if ending is not None:
            return ResultLine(who.text, ending_words(ending, word))
        led = "" if score_beside else f" ({_who_led(seating, winner, scores)})"
        return ResultLine(who.text, f"{word} by resignation{led}")
    note = _skunk_note(seating, winner, skunks)
    return ResultLine(who.text, f"{word}{score}" + (f" ({note})" if note else ""))


def _who_led(seating: Seating, winner: int, scores) -> str:
    """Who was ahead when the game was resigned: "bob led 28–25", "level at 40–40"."""
    sides = len(scores)
    order = [(winner + k) % sides for k in range(sides)]
    top = max(scores)
    leaders = [s for s in order if scores[s] == top]
    if len(leaders) > 1:
        return "level at " + DASH.join(str(scores[s]) for s in order)
    lead = leaders[0]
    line_ = DASH.join(str(scores[s]) for s in [lead, *(s for s in order if s != lead)])
    return f"{side_name(seating, lead)} led {line_}"


def _skunk_note(seating: Seating, winner: int, skunks) -> str:
    """"skunk" (two sides), "you double skunked, carol skunked" (each loser of three); empty for none."""
    if not skunks or not max(skunks):
        return ""
    if seating.sides == 2:
        return SKUNK_NAMES[max(skunks)]
    losers = [(winner + k) % seating.sides for k in range(1, seating.sides)]
    return ", ".join(f"{side_name(seating, s)} {SKUNK_NAMES[skunks[s]]}ed" for s in losers if skunks[s])


def match_line(seating: Seating, winner: int, match_scores, *, entered: bool = False) -> str:
    """"You win the match 2–1", the winner's games first."""
    who = side_who(seating, winner, start=True)
    mark = f" ({ENTERED_MARK})" if entered else ""
    return f"{who.text} {verb(who, 'wins')} the match {scores_line(match_scores, winner)}{mark}"


def ending_words(ending: dict, verb_word: str) -> str:
    """What follows the winner's name when the site ended the game for the loser: "wins on time
    (3 timeouts)", "wins by claim (opponent absent)"."""
    if ending["how"] == "time":
        return f"{verb_word} on time ({endings.time_detail(ending)})"
    return f"{verb_word} by claim (opponent absent)"


def skunked(seating: Seating, skunks, *, with_verb: bool = True) -> str:
    """Who was skunked, where more than one player lost: "Computer 2 is skunked", "You are double
    skunked"; without the verb, for a bracket: "Computer 2 skunked"."""

    def be(who: Who) -> str:
        if not with_verb:
            return ""
        return "are " if who.plural else "is "

    return ", ".join(f"{who.text} {be(who)}{SKUNK_NAMES[k]}ed"
                     for who, k in ((side_who(seating, s, start=True), k) for s, k in enumerate(skunks)) if k)
