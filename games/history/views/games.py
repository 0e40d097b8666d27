"""Finished games: a player's list, the game record, the replay and the downloads.

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

from games.history.analysis import discard_report
from games.history.charts import score_chart
from games.history.export import deal_views, game_json, game_text
from games.history.filters import GameFilterForm
from games.history.models import PlayerGame, RatingChange, with_organisers
from games.history.play_analysis import play_report
from games.history.replay import ReplayError, moves_of
from games.history.replay_board import replay_context
from games.history.win_chart import win_chart
from games.play import components, ratelimit
from games.play.endings import ending_of
from games.play.game_result import ENTERED, final_result
from games.play.models import Game
from games.play.narration import Seating, on_board, result_line, side_names
from games.play.registry import organiser_of

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


def _duration(game: Game):
    row = PlayerGame.objects.filter(game=game).order_by("seat").first()
    return row.duration if row else None


def record(request: HttpRequest, game_id: int) -> HttpResponse:
    game = finished_game_or_404(request, game_id)
    names = game.seat_names()
    table = Seating(tuple(names), None, game.target, game.peg_out_zone)
    sides = side_names(table)
    try:
        deals = deal_views(game, names)
    except ReplayError:
        deals = []
    final = final_result(game) or {"games": [], "match_scores": [], "entered": False, "winner": None}
    results = final["games"]
    tournament = organiser_of(game)
    ending = tournament.ending_of(game) if tournament else None
    site_ending = ending_of(game)  # the site resigned for a player: on time, or a claimed win
    seat = game.seat_of(request.user)
    viewer_side = seat if seat is not None and len(names) == 2 else 0
    games = []
    for result in results:
        # An entered game's chart would draw the deals played, not the result.
        deals_of_game = [] if final["entered"] else [d for d in deals if d["game_no"] == result["game_no"]]
        number = result["game_no"] + 1
        title = f"Scores in game {number}" if game.match_games > 1 else "Scores through the game"
        how = ending.how if ending is not None and result is results[-1] else ""
        games.append({
            "number": number,
            "line": result_line(table, result["winner"], result["scores"], result["reason"],
                                skunks=result.get("skunks") or (), ending=site_ending, how=how,
                                entered=final["entered"], past=True, score_beside=True),
            "score_line": " – ".join(
                f"{sides[i]} {s}" for i, s in enumerate(on_board(result["scores"], game.target))),
            "chart": score_chart(deals_of_game, sides, game.target, title=title) if deals_of_game else "",
            "win_chart": win_chart(deals_of_game, sides, viewer_side, game.target,
                                   title=title.replace("Scores", "Chances to win")),
        })
    if final["entered"] and not results:  # the games won, without their scores
        games.append({"number": 0, "score_line": "",
                      "line": result_line(table, final["winner"], (), ENTERED, entered=True, past=True)})
    changes = RatingChange.objects.filter(game=game).select_related("user").order_by("user__username")
    winner = final["winner"]
    return render(request, "history/record.html", {
        "game": game, "names": names, "sides": sides, "games": games, "deals": deals,
        "entered": final["entered"],
        "winner": sides[winner] if winner is not None else "",
        "match_scores": " – ".join(f"{sides[i]} {s}" for i, s in enumerate(final["match_scores"])),
        "rating_changes": changes, "seat": seat,
        "tournament": tournament, "note": ending.note if ending else "",
        "analysis": discard_report(game),
        "play_analysis": play_report(game, compute=False),
        "duration": _duration(game),
        "verify_data": [
            {"id": f"deal-{d['game_no']}-{d['deal_no']}", "seed": d["seed"], "commitment": d["commitment"],
             "dealer": d["dealer"], "players": d["players_count"], "hands": d["hands"],
             "crib_card": d["crib_card"], "starter": d["starter"]}
            for d in deals
        ],
    })


def play_analysis(request: HttpRequest, game_id: int) -> HttpResponse:
    """The record's pegging analysis, which the record asks for once it has loaded (``play_report``).
    One not made yet counts against the reader's ``RATE_LIMIT_ANALYSIS``: over it, a 429 whose panel
    asks again when the limit allows."""
    game = finished_game_or_404(request, game_id)
    report = play_report(game, compute=False)
    if report is None and (wait := ratelimit.analysis_wait(request)):
        response = render(request, "history/_play_analysis_later.html", {"game": game, "wait": wait},
                          status=429)
        response["Retry-After"] = str(wait)
        return response
    return render(request, "history/_play_analysis.html", {
        "game": game, "names": game.seat_names(), "play_analysis": report or play_report(game),
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
