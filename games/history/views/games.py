"""Finished games: a player's list, the replay and the downloads (the record: ``views.record``).

Only finished games have a record, a replay or a download: an in-progress game answers 404 to
everyone (its players included), so no hidden card or seed can leak before the end. Online games
are public once finished; a game against the computer is shown only to its player (and staff).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from games.history.export import game_json, game_text
from games.history.filters import GameFilterForm
from games.history.models import PlayerGame, with_organisers
from games.history.replay import ReplayError, moves_of
from games.history.replay_board import replay_context
from games.play import components
from games.play.models import Game

PER_PAGE = 20


def finished_game_or_404(request: HttpRequest, game_id: int) -> Game:
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404("Only finished games have a record.")
    if game.vs_computer and game.seat_of(request.user) is None and not request.user.is_staff:
        raise Http404("Games against the computer are private to their player.")
    return game


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    url = reverse("player_games", args=[request.user.username])
    return redirect(f"{url}?{request.GET.urlencode()}" if request.GET else url)


def player_games(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    is_self = request.user == player
    rows = PlayerGame.objects.filter(user=player).select_related("game", "opponent")
    if not is_self:
        rows = rows.online()
    form = GameFilterForm(request.GET, public=not is_self)
    page = Paginator(form.filter(rows), PER_PAGE).get_page(request.GET.get("page"))
    page.object_list = with_organisers(list(page.object_list))  # a tournament game says so, how it ended
    query = {k: v for k, v in request.GET.items() if k != "page" and v}
    return render(request, "history/player_games.html", {
        "player": player, "is_self": is_self, "form": form, "page": page,
        "query": urlencode(query), "filtered": bool(set(query) - {"sort"}),
    })


def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = finished_game_or_404(request, game_id)
    moves = moves_of(game)
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    try:
        context = replay_context(game, step, moves, viewer=game.seat_of(request.user))
    except ReplayError:
        raise Http404("This game's log cannot be replayed.") from None
    context["board"] = components.render("history/replay_board.jinja", context)
    template = "history/replay.html#replay" if request.htmx else "history/replay.html"
    return render(request, template, context)


def export_json(request: HttpRequest, game_id: int) -> HttpResponse:
    game = finished_game_or_404(request, game_id)
    response = JsonResponse(game_json(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="cribbage-game-{game.pk}.json"'
    return response


def export_text(request: HttpRequest, game_id: int) -> HttpResponse:
    game = finished_game_or_404(request, game_id)
    response = HttpResponse(game_text(game), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="cribbage-game-{game.pk}.txt"'
    return response
