"""A finished two-player game's chances to win, deal by deal, as a chess site draws a game's
evaluation: one side's chance at the start of every deal (from the engine's win-probability
table, ``games.engine.winprob``), then the result.

Inline SVG from numbers only, like ``charts.py``; drawn in a small viewBox so its words stay
readable when a phone scales it down.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.engine.winprob import TARGETS, win_chance

WIDTH, HEIGHT = 420, 170
LEFT, RIGHT, TOP, BOTTOM = 46, 16, 10, 28
FONT = 13
INK, GRID, LINE = "#4d5868", "#d8d4ca", "#1e5bc6"


def chances(deals: list[dict], side: int, target: int) -> list[tuple[int, float]] | None:
    """``(deal number, side's chance to win as that deal starts)`` for every deal, then the
    result as a last point; ``None`` where the table does not apply (more than two players, a
    target without a table, a game with no deals)."""
    # The table is for two players: a partnership's deal (four hands) scores otherwise.
    if target not in TARGETS or not deals or any(len(d["hands"]) != 2 for d in deals):
        return None
    out = []
    for deal in deals:
        mine, theirs = deal["scores_before"][side], deal["scores_before"][1 - side]
        out.append((deal["deal_no"] + 1, win_chance(mine, theirs, deal["dealer"] == side, target)))
    last = deals[-1]
    if last.get("won_by") is not None:
        out.append((last["deal_no"] + 2, 1.0 if last["won_by"] == side else 0.0))
    return out


def win_chart(deals: list[dict], names: list[str], side: int, target: int, *, title: str) -> SafeString:
    """The chart of :func:`chances` for ``names[side]``, or nothing where it does not apply."""
    points = chances(deals, side, target)
    if not points or len(points) < 2:
        return SafeString("")
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = len(points) - 1

    def x(i: int) -> float:
        return LEFT + plot_w * i / steps

    def y(p: float) -> float:
        return TOP + plot_h * (1 - p)

    body = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fbfaf7" stroke="{GRID}"/>']
    for p, label in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        dash = ' stroke-dasharray="4 3"' if p == 0.5 else ""
        body.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(p):.1f}" y2="{y(p):.1f}" '
                    f'stroke="{GRID}"{dash}/>')
        body.append(f'<text x="{LEFT - 4}" y="{y(p) + 4:.1f}" text-anchor="end" font-size="{FONT}" '
                    f'fill="{INK}">{label}</text>')
    every = max(1, round(steps / 8))  # a deal number under every few points, never crowded
    for i, (deal, _) in enumerate(points[:-1]):
        if i % every == 0:
            # The first number starts at the plot's corner, clear of the "0%" beside it.
            anchor = "start" if i == 0 else "middle"
            body.append(f'<text x="{x(i):.1f}" y="{HEIGHT - 6}" text-anchor="{anchor}" font-size="{FONT}" '
                        f'fill="{INK}">{deal}</text>')
    body.append(f'<text x="{x(steps):.1f}" y="{HEIGHT - 6}" text-anchor="end" font-size="{FONT}" '
                f'fill="{INK}">end</text>')
    coords = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, (_, p) in enumerate(points))
    body.append(f'<polyline points="{coords}" fill="none" stroke="{LINE}" stroke-width="2.5" '
                'stroke-linejoin="round" stroke-linecap="round"/>')
    body.extend(f'<circle cx="{x(i):.1f}" cy="{y(p):.1f}" r="2.5" fill="{LINE}"/>'
                for i, (_, p) in enumerate(points))
    start, low, high = points[0][1], min(p for _, p in points[:-1]), max(p for _, p in points[:-1])
    outcome = "won" if points[-1][1] == 1.0 else "lost"
    desc = (f"Chance to win for {names[side]}: {start:.0%} at the first deal, between {low:.0%} and "
            f"{high:.0%} as the deals started, then {outcome}")
    return format_html(
        '<figure class="win-chart"><svg viewBox="0 0 {w} {h}" role="img" aria-label="{t}: {d}" '
        'xmlns="http://www.w3.org/2000/svg"><title>{t}</title><desc>{d}</desc>{body}</svg>'
        '<figcaption>{caption}</figcaption></figure>',
        w=WIDTH, h=HEIGHT, t=title, d=desc, body=mark_safe("".join(body)),  # numbers and fixed text only
        caption=f"Chance to win for {names[side]} as each deal started, from the site's table of expert play",
    )
