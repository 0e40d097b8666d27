"""Who sits where, as one reader sees it, and the words for the people at the table: a seat or a
side by name ("You" for the reader's own, "You & carol" for a partnership), verbs that agree with
them, scores in a line.

>>> seating = Seating(("You", "bob"), viewer=0)
>>> said(seat_who(seating, 0, start=True), "deals"), said(seat_who(seating, 1), "deals")
('You deal', 'bob deals')
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.state import teams

DASH = "–"


@dataclass(frozen=True)
class Seating:
    """Who sits where, as one reader sees it: ``names`` by seat ("You" for the reader's own),
    ``viewer`` the reader's seat (None: a spectator), and what a sentence may need of the rules."""

    names: tuple[str, ...]
    viewer: int | None = None
    target: int = 121
    peg_out_zone: int = 0

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def sides(self) -> int:
        return len(teams(self.players))


@dataclass(frozen=True)
class Who:
    """Who a sentence is about, as its reader reads it: ``text`` ("You", "bob", "You & carol") and
    whether it takes the plain verb (``plural``: the reader, or a partnership). Grammar comes from
    the seats and the reader, never from the text: a player may be called "Younger"."""

    text: str
    plural: bool

    def __str__(self) -> str:
        return self.text


def seat_who(seating: Seating, seat: int, *, start: bool = False) -> Who:
    """One seat: "You" (or "you" inside a sentence) for the reader's own, else its name."""
    if seat == seating.viewer:
        return Who("You" if start else "you", True)
    return Who(seating.names[seat], False)


def side_who(seating: Seating, side: int, *, start: bool = False) -> Who:
    """One side: the player, or "You & carol" for a partnership (the reader first)."""
    seats = sorted(teams(seating.players)[side], key=lambda s: s != seating.viewer)
    text = " & ".join(seat_who(seating, s, start=start and i == 0).text for i, s in enumerate(seats))
    return Who(text, len(seats) > 1 or seating.viewer in seats)


def seat_name(seating: Seating, seat: int, *, start: bool = False) -> str:
    return seat_who(seating, seat, start=start).text


def side_name(seating: Seating, side: int, *, start: bool = False) -> str:
    return side_who(seating, side, start=start).text


def side_names(seating: Seating) -> list[str]:
    return [side_name(seating, side, start=True) for side in range(seating.sides)]


def verb(subject: Who, third: str, plain: str | None = None) -> str:
    """``third`` ("deals") for one other person, ``plain`` ("deal") for the reader or a partnership."""
    if not subject.plural:
        return third
    return plain if plain is not None else third[:-1] if third.endswith("s") else third


def said(subject: Who, third: str, plain: str | None = None) -> str:
    """"bob deals", "You deal"."""
    return f"{subject.text} {verb(subject, third, plain)}"


def on_board(scores, target: int) -> tuple[int, ...]:
    """Scores as the board shows them: the winner stands in the game hole, at ``target``, however
    many points took them there (a 29 hand from 119 is still a game won at 121).

    >>> on_board((124, 108), 121)
    (121, 108)
    """
    return tuple(min(s, target) for s in scores)


def scores_line(scores, first: int) -> str:
    """Scores by side, ``first`` side's first, then clockwise: "121–95–60"."""
    sides = len(scores)
    return DASH.join(str(scores[(first + k) % sides]) for k in range(sides))


def and_list(words: list[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
