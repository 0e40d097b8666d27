"""The cribbage board as inline SVG, laid out server-side.

Each track snakes through three "streets" (rows of holes) like a classic continuous board: street 0
runs left to right, street 1 comes back, street 2 runs left to right again and ends at the shared
game hole. 121 boards have 40 holes a street, 61 boards 20, so every skunk line (60|61, 90|91,
30|31) falls in a gap between groups of five rather than on a turn.

Tracks are nested at the turns (their order flips on the return street), so each track's lane is
one unbroken path with concentric bends. The rows of holes are one dotted path, so a two-track 121
board is about 3 kB.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe

STREETS = 3
STEP = 10  # hole pitch along a street
GROUP_GAP = 6  # extra space between groups of five holes
ROW = 10  # pitch between the track rows of one street
STREET_GAP = 20  # vertical gap between streets: room for the skunk labels
PAD_TOP = 13
PAD_BOTTOM = 18
HOLE_R = 2.1
PEG_R = 3.7
COLORS = ("red", "blue", "green")


@dataclass(frozen=True, slots=True)
class Track:
    label: str
    front: int
    back: int
    color: str


def _as_track(raw: Mapping | Track, index: int) -> Track:
    if isinstance(raw, Track):
        return raw
    color = str(raw.get("color") or COLORS[index % len(COLORS)])
    if color not in COLORS:
        color = COLORS[index % len(COLORS)]
    front = max(0, int(raw.get("front") or 0))
    back = max(0, int(raw.get("back") or 0))
    return Track(label=str(raw.get("label") or f"Player {index + 1}"), front=front, back=back, color=color)


def skunk_lines(target: int) -> list[tuple[int, str]]:
    """Lines drawn on the board as (last hole before the line, label): 121 has two, 61 one."""
    if target == 61:
        return [(30, "skunk")]
    return [(60, "double skunk"), (90, "skunk")]


class Layout:
    """Where every hole of a board with ``n`` tracks and this ``target`` sits, in SVG user units."""

    def __init__(self, n: int, target: int) -> None:
        if target not in (61, 121):
            raise ValueError(f"target must be 61 or 121, not {target!r}")
        self.n = n
        self.target = target
        self.per = (target - 1) // STREETS
        # The outermost bend has radius (street pitch + (n - 1) rows) / 2; the margins must hold it.
        self.bend = (self.street_pitch + (n - 1) * ROW) / 2
        self.x0 = max(2 * STEP + GROUP_GAP + 10, self.bend + 8)
        self.row_end = self.col_x(self.per - 1)
        self.turn_x_right = self.row_end + STEP / 2
        self.turn_x_left = self.x0 - STEP / 2
        self.game_x = self.row_end + STEP + GROUP_GAP + 2
        self.width = max(self.turn_x_right + self.bend, self.game_x + 4) + 8
        self.height = PAD_TOP + STREETS * n * ROW + (STREETS - 1) * STREET_GAP + PAD_BOTTOM

    @property
    def street_pitch(self) -> float:
        return self.n * ROW + STREET_GAP

    def street_top(self, street: int) -> float:
        return PAD_TOP + street * self.street_pitch

    def col_x(self, col: int) -> float:
        return self.x0 + col * STEP + (col // 5) * GROUP_GAP

    def row_y(self, street: int, track: int) -> float:
        # Odd (returning) streets list the tracks in reverse, which nests the bends.
        row = track if street % 2 == 0 else self.n - 1 - track
        return self.street_top(street) + ROW / 2 + row * ROW

    def col_of(self, hole: int) -> tuple[int, int]:
        street, k = divmod(hole - 1, self.per)
        return street, (k if street % 2 == 0 else self.per - 1 - k)

    def game_hole(self) -> tuple[float, float]:
        last = STREETS - 1
        return self.game_x, self.street_top(last) + self.n * ROW / 2

    def start_hole(self, track: int, slot: int) -> tuple[float, float]:
        """Slot 0 is the back peg's start hole (further out), 1 the front peg's."""
        return self.x0 - GROUP_GAP - (2 - slot) * STEP, self.row_y(0, track)

    def hole(self, track: int, hole: int) -> tuple[float, float]:
        """Centre of ``hole`` (1..target-1) on ``track``; target or more is the game hole."""
        if hole >= self.target:
            return self.game_hole()
        street, col = self.col_of(hole)
        return self.col_x(col), self.row_y(street, track)

    def peg(self, track: int, score: int, *, front: bool) -> tuple[float, float]:
        if score <= 0:
            return self.start_hole(track, 1 if front else 0)
        return self.hole(track, score)

    def line_x(self, last_hole: int) -> tuple[int, float]:
        """Street and x of a line drawn between ``last_hole`` and the next hole."""
        street, col = self.col_of(last_hole)
        _, next_col = self.col_of(last_hole + 1)
        return street, (self.col_x(col) + self.col_x(next_col)) / 2

    def lane_path(self, track: int) -> str:
        """One continuous path through a track's rows: start holes, three streets, the game hole."""
        sx, sy = self.start_hole(track, 0)
        parts = [f"M{sx:g} {sy:g}"]
        for street in range(STREETS):
            y = self.row_y(street, track)
            going_right = street % 2 == 0
            end_x = self.turn_x_right if going_right else self.turn_x_left
            parts.append(f"H{end_x:g}")
            if street < STREETS - 1:
                ny = self.row_y(street + 1, track)
                r = (ny - y) / 2
                parts.append(f"A{r:g} {r:g} 0 0 {1 if going_right else 0} {end_x:g} {ny:g}")
        gx, gy = self.game_hole()
        parts.append(f"L{gx:g} {gy:g}")
        return "".join(parts)


def summary(tracks: Iterable[Track], target: int) -> str:
    """The accessible name: ``You 45, Computer 38, game to 121``."""
    return ", ".join([*(f"{t.label} {t.front}" for t in tracks), f"game to {target}"])


def _details(tracks: list[Track], target: int) -> str:
    lines = [f"{t.label}: front peg {t.front}, back peg {t.back}." for t in tracks]
    marks = " and ".join(f"{label} line after {hole}" for hole, label in skunk_lines(target))
    return " ".join([*lines, f"{marks.capitalize()}."])


def render_pegboard(
    raw_tracks: Iterable[Mapping | Track], target: int = 121, id_prefix: str = "pegboard"
) -> SafeString:
    """The board figure: inline SVG plus a visible score legend.

    Pegs keep stable ids (``<prefix>-peg-<track>-front|back``) and are placed with a CSS
    ``transform``, so when htmx swaps in a new board it settles the ``style`` attribute and the
    CSS transition slides each peg to its new hole.
    """
    tracks = tuple(_as_track(t, i) for i, t in enumerate(raw_tracks))
    if not tracks:
        raise ValueError("a board needs at least one track")
    # A SafeString equals the str of the same text: the key says which each label and the prefix
    # are, so plain text never comes back as a cached trusted one.
    safe = tuple(isinstance(x, SafeData) for x in (id_prefix, *(t.label for t in tracks)))
    return _draw_pegboard(tracks, int(target), id_prefix, safe)


# Every move draws two boards, and most moves score nothing: the same pegs for the same viewer.
# About 3 kB a board, so this holds a few recent boards of each of some hundreds of viewers.
@lru_cache(maxsize=1024)
def _draw_pegboard(tracks: tuple[Track, ...], target: int, id_prefix: str, safe: tuple) -> SafeString:
    lay = Layout(len(tracks), target)
    p = escape(id_prefix)
    name = summary(tracks, target)
    head = format_html(
        '<svg class="board-svg" viewBox="0 0 {w} {h}" role="img" aria-label="{name}" '
        'xmlns="http://www.w3.org/2000/svg"><title>{name}</title><desc>{desc}</desc>',
        w=f"{lay.width:g}",
        h=f"{lay.height:g}",
        name=name,
        desc=_details(tracks, target),
    )
    fixed = _fixed_parts(len(tracks), target, p, tuple(t.color for t in tracks))
    svg = "".join([head, fixed, _pegs(lay, tracks, p), "</svg>"])
    caption = _caption(tracks, target)
    # The same key, the same figure: a board morphed into the page leaves the pegboard alone when
    # nobody pegged (most moves), rather than compare its hundred elements one by one.
    key = hashlib.blake2s((svg + caption).encode(), digest_size=8).hexdigest()
    return format_html(
        '<figure class="cribbage-board" id="{}" data-target="{}" data-morph-key="{}">{}{}</figure>',
        id_prefix,
        target,
        key,
        mark_safe(svg),  # built from numbers, fixed strings and the escaped prefix
        caption,
    )


@lru_cache(maxsize=64)
def _fixed_parts(n: int, target: int, p: str, colors: tuple[str, ...]) -> str:
    """Wood, lanes, holes and marks: the same for every board of one shape (every move draws two)."""
    lay = Layout(n, target)
    lanes = "".join(f'<path class="lane lane--{c}" d="{lay.lane_path(i)}"/>' for i, c in enumerate(colors))
    # Keyed by the shape (data-morph-key): a board whose pegs moved is morphed without walking these.
    key = f"{p}-{n}-{target}"
    wood = _wood(lay, p).replace("<defs>", f'<defs data-morph-key="{key}">', 1)
    holes = _holes(lay).replace('<g class="holes">', f'<g class="holes" data-morph-key="{key}">', 1)
    return "".join([wood, lanes, holes, _marks(lay)])


def _wood(lay: Layout, p: str) -> str:
    return (
        f'<defs><linearGradient id="{p}-wood" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#d9a86c"/><stop offset="1" stop-color="#b7804a"/>'
        '</linearGradient></defs>'
        f'<rect class="board-wood" x="1" y="1" width="{lay.width - 2:g}" height="{lay.height - 2:g}" '
        f'rx="10" fill="url(#{p}-wood)"/>'
    )


# Every row of holes is a line drawn in dots: a dash of no length with round ends is a hole HOLE_R
# round, a hole apart, with the wider gap after each five. All the rows are one path (each row a
# subpath starts the dashes again): one element for every hole of the board, as each element costs
# the browser its parse and the morph its match on every board.
HOLE_DASHES = " ".join(["0", f"{STEP}"] * 4 + ["0", f"{STEP + GROUP_GAP}"])


def _holes(lay: Layout) -> str:
    first, last = lay.col_x(0), lay.col_x(lay.per - 1)
    # One unit past the last hole: a dash at the path's very end is not drawn by every browser.
    rows = "".join(f"M{first:g} {lay.row_y(street, i):g}h{last - first + 1:g}"
                   for street in range(STREETS) for i in range(lay.n))
    out = ['<g class="holes">',
           f'<path class="hole-rows" d="{rows}" stroke-width="{2 * HOLE_R:g}" stroke-linecap="round" '
           f'stroke-dasharray="{HOLE_DASHES}"/>']
    for i in range(lay.n):
        for slot in (0, 1):
            x, y = lay.start_hole(i, slot)
            out.append(f'<circle class="start-hole" cx="{x:g}" cy="{y:g}" r="{HOLE_R}"/>')
    gx, gy = lay.game_hole()
    out.append(f'<circle class="game-hole" cx="{gx:g}" cy="{gy:g}" r="{HOLE_R + 1.2:g}"/></g>')
    return "".join(out)


def _marks(lay: Layout) -> str:
    """Labels for the start and game holes, and the skunk lines."""
    gx, gy = lay.game_hole()
    sx, _ = lay.start_hole(0, 0)
    mark = '<text class="board-mark" x="{:g}" y="{:g}" text-anchor="middle">{}</text>'
    out = [mark.format(gx, gy + ROW + 3, lay.target), mark.format(sx + STEP / 2, PAD_TOP - 4, "start")]
    for last, label in skunk_lines(lay.target):
        street, x = lay.line_x(last)
        top = lay.street_top(street) - 3
        bottom = lay.street_top(street) + lay.n * ROW + 3
        out.append(
            f'<g class="skunk-line" data-after="{last}">'
            f'<line x1="{x:g}" y1="{top:g}" x2="{x:g}" y2="{bottom:g}"/>'
            f'<text x="{x:g}" y="{bottom + 9:g}" text-anchor="middle">{label} {last}</text></g>'
        )
    return "".join(out)


def _pegs(lay: Layout, tracks: list[Track], p: str) -> str:
    out = []
    for i, t in enumerate(tracks):
        for kind, score in (("back", t.back), ("front", t.front)):
            x, y = lay.peg(i, score, front=kind == "front")
            out.append(
                f'<g id="{p}-peg-{i}-{kind}" class="peg peg--{t.color} peg--{kind}" data-hole="{score}" '
                f'style="transform:translate({x:g}px,{y:g}px)"><circle r="{PEG_R}"/>'
                f'<circle class="peg-shine" cx="-1.1" cy="-1.2" r="1.1"/></g>'
            )
    return "".join(out)


def _caption(tracks: list[Track], target: int) -> SafeString:
    """The visible scores: large, readable text even where the board itself is small."""
    # Plain f-strings with explicit escapes: format_html's per-argument checks were 1% of a worker.
    items = "".join(
        f'<li class="board-score board-score--{escape(t.color)}"><span class="board-score__swatch" '
        f'aria-hidden="true"></span><span class="board-score__label">{conditional_escape(t.label)}</span> '
        f'<strong class="board-score__points">{int(t.front)}</strong></li>'
        for t in tracks
    )
    return mark_safe(  # every value above is escaped or an int
        f'<figcaption class="board-scores"><ul>{items}</ul><span class="board-target">Game to {int(target)}'
        "</span></figcaption>"
    )
