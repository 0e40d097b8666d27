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
    is_self = request.user == player
    # Games against the computer are private to their player, here as on the profile and the lists.
    kinds = [(False, "online", "Online games")]
    if is_self:
        kinds.append((True, "computer", "Against the computer"))
    # A section with no finished game is left out: one line says so when every section is.
    sections = [{"key": key, "title": title, "players": 2, "stats": stats}
                for vs, key, title in kinds if (stats := player_stats(player, vs_computer=vs))["games"]]
    # Tables of three and four, once there are any, online apart from against the computer.
    for players, key, title in ((3, "three", "Three players"), (4, "four", "Four players (partners)")):
        for vs, kind, words in kinds:
            table = player_stats(player, players=players, vs_computer=vs)
            if table["games"]:
                sections.append({"key": f"{key}-{kind}", "title": f"{title}, {words[0].lower()}{words[1:]}",
                                 "players": players, "stats": table})
    return render(request, "history/stats.html", {"player": player, "is_self": is_self, "sections": sections})


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
