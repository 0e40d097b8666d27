"""Small inline SVG charts: every side's score through a game, and a player's rating over time.

Built server-side from numbers only (names go through ``format_html``), so they need no script
and print as they look. Each chart is ``role="img"`` with a title and a description in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.play.pegboard import skunk_lines

COLOURS = ("#c62828", "#1e5bc6", "#2e7d32")


@dataclass(frozen=True)
class Frame:
    """One drawing of the score chart: its size in user units, its margins and its words' size.
    The right margin holds the skunk lines' words, beside the plot: inside it they sat on the lines."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    font: int
    css: str


# A wide screen draws the wide frame at about its size; a phone the narrow one, whose words are
# still 10 px or more on the screen once a 360-unit drawing is scaled to the phone's width.
WIDE = Frame(640, 240, 40, 110, 12, 28, 10, "chart--wide")
NARROW = Frame(360, 250, 30, 58, 10, 30, 12, "chart--narrow")


def _polyline(points: list[tuple[float, float]], colour: str, css: str) -> str:
    coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return (f'<polyline class="{css}" points="{coords}" fill="none" stroke="{colour}" stroke-width="2.5" '
            'stroke-linejoin="round" stroke-linecap="round"/>')


def score_chart(deals: list[dict], names: list[str], target: int, *, title: str) -> SafeString:
    """Each side's score (one line per name in ``names``: two or three sides) after every scoring
    event of one game; lines where each deal starts. Drawn twice, for a wide screen and a phone;
    the page shows one."""
    n = len(names)
    series: list[list[int]] = [[0] * n]
    deal_starts: list[tuple[int, int]] = []
    for deal in deals:
        deal_starts.append((len(series) - 1, deal["deal_no"] + 1))
        # The winner stands in the game hole at the target, as on the board, whatever they counted.
        series.extend([min(s, target) for s in point] for point in deal["timeline"])
    final = series[-1]
    desc = ", ".join(f"{names[i]} {final[i]}" for i in range(n)) + f" after {len(deals)} deal" + (
        "s" if len(deals) != 1 else "")
    drawings = [
        format_html(
            '<svg class="{css}" viewBox="0 0 {w} {h}" role="img" aria-label="{t}: {d}" '
            'xmlns="http://www.w3.org/2000/svg"><title>{t}</title><desc>{d}</desc>{body}</svg>',
            css=f.css, w=f.width, h=f.height, t=title, d=desc,
            body=mark_safe(_score_body(f, series, deal_starts, target, n)),  # numbers and fixed text only
        )
        for f in (WIDE, NARROW)
    ]
    return format_html(
        '<figure class="score-chart">{wide}{narrow}<figcaption><ul class="chart-legend">{legend}</ul>'
        '</figcaption></figure>',
        wide=drawings[0], narrow=drawings[1],
        legend=format_html_join(
            "", '<li><span class="chart-swatch" style="background:{}" aria-hidden="true"></span>{} {}</li>',
            ((COLOURS[i % len(COLOURS)], names[i], final[i]) for i in range(n)),
        ),
    )


def _score_body(f: Frame, series: list[list[int]], deal_starts: list[tuple[int, int]], target: int,
                n: int) -> str:
    steps = max(len(series) - 1, 1)
    plot_w, plot_h = f.width - f.left - f.right, f.height - f.top - f.bottom
    ink = f'font-size="{f.font}" fill="#4d5868"'

    def x(i: int) -> float:
        return f.left + plot_w * i / steps

    def y(score: float) -> float:
        return f.top + plot_h * (1 - score / target)

    frame = 'fill="#fbfaf7" stroke="#d8d4ca"'
    parts = [f'<rect x="{f.left}" y="{f.top}" width="{plot_w}" height="{plot_h}" {frame}/>']
    dashed = 'stroke="#8a8478" stroke-dasharray="4 3" stroke-width="1"'
    top = y(target)
    parts.append(f'<line x1="{f.left}" x2="{f.width - f.right}" y1="{top:.1f}" y2="{top:.1f}" {dashed}/>')
    parts.append(f'<text x="{f.left - 4}" y="{top + f.font * 0.4:.1f}" text-anchor="end" {ink}>'
                 f'{target}</text>')
    # The board's lines and words: a line between the last hole of a skunk and the next one; the
    # words in the margin, a word a line, the hole's number under them.
    side = f.width - f.right + 4
    for last, label in skunk_lines(target):
        at = y(last + 0.5)
        parts.append(f'<line class="chart-skunk" x1="{f.left}" x2="{f.width - f.right}" '
                     f'y1="{at:.1f}" y2="{at:.1f}" {dashed}/>')
        lines = [*label.split(), str(last)] if f is NARROW else [label, str(last)]
        spans = "".join(f'<tspan x="{side}" dy="1.1em">{w}</tspan>' for w in lines[1:])
        parts.append(f'<text class="chart-skunk-label" x="{side}" y="{at - 2:.1f}" {ink}>'
                     f'{lines[0]}{spans}</text>')
    # A deal's number under its line, every few deals so the numbers never touch.
    room = 3 * f.font
    shown_at = -room
    for i, deal_no in deal_starts:
        parts.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{f.top}" y2="{f.height - f.bottom}" '
                     'stroke="#d8d4ca"/>')
        if x(i) - shown_at >= room and x(i) + room <= f.width - f.right + f.font:
            shown_at = x(i)
            parts.append(f'<text x="{x(i) + 3:.1f}" y="{f.height - f.bottom + f.font + 4}" {ink}>'
                         f'{deal_no}</text>')
    # The axis' name under the scores' axis, clear of the deal numbers.
    parts.append(f'<text x="{f.left - 4}" y="{f.height - f.bottom + f.font + 4}" text-anchor="end" {ink}>'
                 'deal</text>')
    for seat in range(n):
        points = [(x(i), y(s[seat])) for i, s in enumerate(series)]
        parts.append(_polyline(points, COLOURS[seat % len(COLOURS)], f"chart-line chart-line--{seat}"))
    return "".join(parts)


def rating_chart(points: list[float], *, title: str) -> SafeString:
    """A rating's path: the first value is the rating before the first rated game."""
    if len(points) < 2:
        return SafeString("")
    w, h, left, top, bottom = 320, 110, 38, 8, 16
    low, high = min(points) - 10, max(points) + 10
    plot_w, plot_h = w - left - 6, h - top - bottom
    steps = len(points) - 1

    def x(i: int) -> float:
        return left + plot_w * i / steps

    def y(value: float) -> float:
        return top + plot_h * (1 - (value - low) / (high - low))

    frame = 'fill="#fbfaf7" stroke="#d8d4ca"'
    body = [f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" {frame}/>']
    for value in (max(points), min(points)):
        body.append(f'<text x="{left - 3}" y="{y(value) + 3:.1f}" text-anchor="end" font-size="10" '
                    f'fill="#4d5868">{value:.0f}</text>')
    body.append(_polyline([(x(i), y(v)) for i, v in enumerate(points)], COLOURS[1], "chart-line"))
    games = f"{steps} rated game" + ("s" if steps != 1 else "")
    for at, anchor, words in ((left, "start", "start"), (left + plot_w, "end", f"after {games}")):
        body.append(f'<text x="{at}" y="{h - 3}" text-anchor="{anchor}" font-size="10" '
                    f'fill="#4d5868">{words}</text>')
    desc = f"from {points[0]:.0f} to {points[-1]:.0f} over {games}"
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-label="{t}: {d}" xmlns="http://www.w3.org/2000/svg"><title>{t}</title><desc>{d}</desc>{body}</svg>',
        w=w, h=h, t=title, d=desc, body=mark_safe("".join(body)),
    )
