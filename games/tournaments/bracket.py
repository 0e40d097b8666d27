"""Geometry of the bracket drawing: boxes and connector paths for an inline SVG (no Django here).

Round ``r`` (1-based) is column ``r - 1``; a match sits midway between the two it is fed by.
"""

from __future__ import annotations

from dataclasses import dataclass

BOX_W = 190
BOX_H = 48
GAP_X = 44
PITCH = BOX_H + 18
LABEL_H = 22


@dataclass(frozen=True)
class Line:
    """One player's line in a box: ``name`` (with seed), ``score`` (games won, or with ``live`` the
    points of the game in play), flags for styling."""

    name: str
    score: str = ""
    winner: bool = False
    me: bool = False
    empty: bool = False
    live: bool = False


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    top: Line
    bottom: Line
    href: str = ""
    label: str = ""
    status: str = ""

    @property
    def w(self) -> int:
        return BOX_W

    @property
    def h(self) -> int:
        return BOX_H

    @property
    def x2(self) -> int:
        return self.x + BOX_W

    @property
    def mid_y(self) -> int:
        return self.y + BOX_H // 2

    @property
    def top_text_y(self) -> int:
        return self.y + 17

    @property
    def bottom_text_y(self) -> int:
        return self.y + BOX_H - 8

    @property
    def text_x(self) -> int:
        return self.x + 8

    @property
    def score_x(self) -> int:
        return self.x + BOX_W - 8


@dataclass(frozen=True)
class Heading:
    x: int
    text: str


# On a narrow screen the drawing shrinks to fit down to this share of its size (names stay
# readable), and scrolls sideways in its box beyond that.
MIN_SCALE = 0.72


@dataclass(frozen=True)
class Drawing:
    width: int
    height: int
    boxes: list[Box]
    paths: list[str]
    headings: list[Heading]

    @property
    def min_width(self) -> int:
        return int(self.width * MIN_SCALE)


def center_y(round_no: int, slot: int) -> int:
    """The vertical centre of a match: round 1 boxes stack at ``PITCH``, each later round halfway
    between its two feeders."""
    span = PITCH * (1 << (round_no - 1))
    return LABEL_H + int(span * (slot + 0.5))


def column_x(round_no: int) -> int:
    return (round_no - 1) * (BOX_W + GAP_X)


def layout(rounds: dict[int, list[tuple[int, Line, Line, str, str]]], names: dict[int, str]) -> Drawing:
    """``rounds[r]`` lists ``(slot, top, bottom, href, status)``; ``names[r]`` heads each column."""
    count = max(rounds) if rounds else 0
    first = 1 << (count - 1) if count else 0
    boxes: list[Box] = []
    paths: list[str] = []
    for r in sorted(rounds):
        for slot, top, bottom, href, status in rounds[r]:
            y = center_y(r, slot) - BOX_H // 2
            boxes.append(
                Box(column_x(r), y, top, bottom, href, f"{names.get(r, '')} match {slot + 1}", status)
            )
            if r < count:
                x0 = column_x(r) + BOX_W
                x1 = column_x(r + 1)
                y0 = center_y(r, slot)
                y1 = center_y(r + 1, slot // 2)
                mid = x0 + GAP_X // 2
                paths.append(f"M{x0} {y0}H{mid}V{y1}H{x1}")
    headings = [Heading(column_x(r), names.get(r, f"Round {r}")) for r in sorted(rounds)]
    width = count * BOX_W + max(0, count - 1) * GAP_X
    height = LABEL_H + first * PITCH
    return Drawing(width, height, boxes, paths, headings)
