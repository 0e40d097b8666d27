"""``{% load game_history %}``: the history part of a profile."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.db.models import Count, Q

from games.history.charts import rating_chart
from games.history.models import PlayerGame, Pool, Rating, RatingChange, with_organisers
from games.history.stats import player_stats

register = template.Library()
RECENT_GAMES = 5


@register.inclusion_tag("history/_profile.html", takes_context=True)
def profile_history(context, player) -> dict:
    """Ratings (with their history), a few figures and links, for the profile page (the figures are
    two-player games'; tables of three and four get a line of their own)."""
    viewer = context.get("user")
    ratings = []
    for rating in Rating.objects.filter(user=player).order_by("-pool"):
        changes = list(RatingChange.objects.filter(user=player, pool=rating.pool).order_by("at", "pk"))
        points = [changes[0].rating_before, *(c.rating_after for c in changes)] if changes else []
        ratings.append({
            "row": rating, "pool": Pool(rating.pool).label, "pool_value": rating.pool,
            "chart": rating_chart(points, title=f"{Pool(rating.pool).label} rating history"),
            "last": changes[-1] if changes else None,
        })
    recent = PlayerGame.objects.filter(user=player).select_related("game", "opponent")
    if viewer != player:
        recent = recent.online()
    tables = recent.filter(players__gt=2).aggregate(
        games=Count("pk"), wins=Count("pk", filter=Q(result=PlayerGame.Result.WIN)))
    recent = list(recent[:RECENT_GAMES])
    with_organisers(recent)
    return {
        "player": player,
        "is_self": viewer == player,
        "recent": recent,
        "ratings": ratings,
        "online": player_stats(player, vs_computer=False),
        "computer": player_stats(player, vs_computer=True) if viewer == player else None,
        "tables": tables,
    }


@register.filter
def duration(value: timedelta | None) -> str:
    """``1 h 05 min``, ``12 min``, ``40 s``; empty for none."""
    if value is None:
        return ""
    seconds = int(value.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"


@register.filter
def signed(value: float | int | None) -> str:
    """``+12`` / ``-3`` / ``0`` (rounded)."""
    if value is None:
        return ""
    n = round(value)
    return f"+{n}" if n > 0 else str(n)


@register.filter
def average(value) -> str:
    """An average as the statistics print every one: two decimals ("7.00" beside "6.15"), or a dash."""
    return "—" if value is None else f"{value:.2f}"
