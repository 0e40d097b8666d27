"""Small inline SVG charts: every side's score through a game, and a player's rating over time.

Built server-side from numbers only (names go through ``format_html``), so they need no script
and print as they look. Each chart is ``role="img"`` with a title and a description in words.
"""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.play.pegboard import skunk_lines

COLOURS = ("#c62828", "#1e5bc6", "#2e7d32")
WIDTH, HEIGHT = 640, 240
# The right margin holds the skunk lines' words, beside the plot: inside it they sat on the lines.
LEFT, RIGHT, TOP, BOTTOM = 40, 110, 12, 28


def _polyline(points: list[tuple[float, float]], colour: str, css: str) -> str:
    coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return (f'<polyline class="{css}" points="{coords}" fill="none" stroke="{colour}" stroke-width="2.5" '
            'stroke-linejoin="round" stroke-linecap="round"/>')


def score_chart(deals: list[dict], names: list[str], target: int, *, title: str) -> SafeString:
    """Each side's score (one line per name in ``names``: two or three sides) after every scoring
    event of one game; lines where each deal starts."""
    n = len(names)
    series: list[list[int]] = [[0] * n]
    deal_starts: list[tuple[int, int]] = []
    for deal in deals:
        deal_starts.append((len(series) - 1, deal["deal_no"] + 1))
        # The winner stands in the game hole at the target, as on the board, whatever they counted.
        series.extend([min(s, target) for s in point] for point in deal["timeline"])
    steps = max(len(series) - 1, 1)
    top_score = target
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / steps

    def y(score: float) -> float:
        return TOP + plot_h * (1 - score / top_score)

    frame = 'fill="#fbfaf7" stroke="#d8d4ca"'
    parts = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" {frame}/>']
    dashed = 'stroke="#8a8478" stroke-dasharray="4 3" stroke-width="1"'
    top = y(target)
    parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{top:.1f}" y2="{top:.1f}" {dashed}/>')
    parts.append(f'<text x="{LEFT - 4}" y="{top + 4:.1f}" text-anchor="end" font-size="10" '
                 f'fill="#4d5868">{target}</text>')
    # The board's lines and words: a line between the last hole of a skunk and the next one.
    for last, label in skunk_lines(target):
        at = y(last + 0.5)
        parts.append(f'<line class="chart-skunk" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                     f'y1="{at:.1f}" y2="{at:.1f}" {dashed}/>')
        # Two short lines ("double skunk", "60"), so the words still fit the margin drawn larger
        # on a phone.
        side = WIDTH - RIGHT + 4
        parts.append(f'<text class="chart-skunk-label" x="{side}" y="{at - 2:.1f}" font-size="10" '
                     f'fill="#4d5868">{label}<tspan x="{side}" dy="1.1em">{last}</tspan></text>')
    for i, deal_no in deal_starts:
        parts.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}" '
                     'stroke="#d8d4ca"/>')
        parts.append(f'<text x="{x(i) + 3:.1f}" y="{HEIGHT - BOTTOM + 14}" font-size="10" fill="#4d5868">'
                     f'{deal_no}</text>')
    # The axis' name in the margin, at the end of the deal numbers: under them it collided with
    # the first one once the words are drawn larger on a phone.
    parts.append(f'<text x="{WIDTH - RIGHT + 4}" y="{HEIGHT - BOTTOM + 14}" font-size="10" '
                 'fill="#4d5868">deal</text>')
    for seat in range(n):
        points = [(x(i), y(s[seat])) for i, s in enumerate(series)]
        parts.append(_polyline(points, COLOURS[seat % len(COLOURS)], f"chart-line chart-line--{seat}"))
    final = series[-1]
    desc = ", ".join(f"{names[i]} {final[i]}" for i in range(n)) + f" after {len(deals)} deal" + (
        "s" if len(deals) != 1 else "")
    return format_html(
        '<figure class="score-chart"><svg viewBox="0 0 {w} {h}" role="img" aria-label="{t}: {d}" '
        'xmlns="http://www.w3.org/2000/svg"><title>{t}</title><desc>{d}</desc>{body}</svg>'
        '<figcaption><ul class="chart-legend">{legend}</ul></figcaption></figure>',
        w=WIDTH, h=HEIGHT, t=title, d=desc, body=mark_safe("".join(parts)),  # numbers and fixed text only
        legend=format_html_join(
            "", '<li><span class="chart-swatch" style="background:{}" aria-hidden="true"></span>{} {}</li>',
            ((COLOURS[i % len(COLOURS)], names[i], final[i]) for i in range(n)),
        ),
    )


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
        body.append(f'<text x="{left - 3}" y="{y(value) + 3:.1f}" text-anchor="end" font-size="9" '
                    f'fill="#4d5868">{value:.0f}</text>')
    body.append(_polyline([(x(i), y(v)) for i, v in enumerate(points)], COLOURS[1], "chart-line"))
    games = f"{steps} rated game" + ("s" if steps != 1 else "")
    for at, anchor, words in ((left, "start", "start"), (left + plot_w, "end", f"after {games}")):
        body.append(f'<text x="{at}" y="{h - 3}" text-anchor="{anchor}" font-size="9" '
                    f'fill="#4d5868">{words}</text>')
    desc = f"from {points[0]:.0f} to {points[-1]:.0f} over {games}"
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-label="{t}: {d}" xmlns="http://www.w3.org/2000/svg"><title>{t}</title><desc>{d}</desc>{body}</svg>',
        w=w, h=h, t=title, d=desc, body=mark_safe("".join(body)),
    )
