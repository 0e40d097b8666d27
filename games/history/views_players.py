"""Players: statistics, the rating leaderboard, and the page on checking deals."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.history.models import Pool, Rating
from games.history.ratings import FIRST_DEALER_WIN_RATE
from games.history.stats import player_stats

LEADERBOARD_PER_PAGE = 50


def stats(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    sections = [
        {"key": "online", "title": "Online games", "players": 2,
         "stats": player_stats(player, vs_computer=False)},
        {"key": "computer", "title": "Against the computer", "players": 2,
         "stats": player_stats(player, vs_computer=True)},
    ]
    # Tables of three and four (online and against the computer together), once there are any.
    for players, key, title in ((3, "three", "Three players"), (4, "four", "Four players (partners)")):
        table = player_stats(player, players=players)
        if table["games"]:
            sections.append({"key": key, "title": title, "players": players, "stats": table})
    return render(request, "history/stats.html", {
        "player": player,
        "is_self": request.user == player,
        "sections": sections,
    })


def leaderboard(request: HttpRequest) -> HttpResponse:
    try:
        pool = Pool(int(request.GET.get("pool", Pool.LONG)))
    except ValueError:
        pool = Pool.LONG
    ratings = Rating.objects.filter(pool=pool, user__is_active=True).select_related("user")
    ratings = ratings.order_by("-rating", "pk")
    page = Paginator(ratings, LEADERBOARD_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "history/leaderboard.html", {
        "pool": pool, "pools": Pool.choices, "page": page,
        "offset": (page.number - 1) * LEADERBOARD_PER_PAGE, "query": f"pool={pool.value}",
        "provisional_rd": Rating.PROVISIONAL_RD,
        "first_dealer_pct": round(FIRST_DEALER_WIN_RATE[pool.value] * 100),
    })


def verify_help(request: HttpRequest) -> HttpResponse:
    return render(request, "history/verify.html")
