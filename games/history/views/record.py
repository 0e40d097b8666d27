"""A finished game's record: the first answer is its summary and score charts, with a line per
deal; each deal, the fair-deal check and the two analyses are parts of their own, fetched as the
reader opens them (or, for the check, scrolls to it), so a long game opens at once.

Each part answers only whoever may read the record (``finished_game_or_404``): a game in progress
or another player's game against the computer is a 404, part or whole. A part asked for without
htmx (no JavaScript) comes inside a page of its own. The analyses are read, never worked out: a
task made them when the game ended (``games.history.tasks``); until it has, the part says so and
asks again a few seconds later.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.history.analysis import DiscardVerdict, from_data
from games.history.charts import score_chart
from games.history.export import deal_views
from games.history.models import GameAnalysis, PlayerGame, RatingChange
from games.history.play_analysis import PlayVerdict
from games.history.replay import ReplayError
from games.history.tasks import analysable
from games.history.views.games import finished_game_or_404
from games.history.win_chart import win_chart
from games.play.endings import ending_of
from games.play.game_result import ENTERED, final_result
from games.play.models import Game
from games.play.narration import Seating, on_board, result_line, side_names
from games.play.registry import organiser_of

ANALYSES = {"discards": ("history/_discard_analysis.html", DiscardVerdict),
            "pegging": ("history/_play_analysis.html", PlayVerdict)}
POLL_SECONDS = 3  # how soon a part whose analysis is being prepared asks again


def _deals(game: Game) -> list[dict]:
    try:
        return deal_views(game, game.seat_names())
    except ReplayError:
        return []


def _duration(game: Game):
    row = PlayerGame.objects.filter(game=game).order_by("seat").first()
    return row.duration if row else None


def _part(request: HttpRequest, template: str, context: dict, title: str) -> HttpResponse:
    """A part of the record: the fragment for htmx, else the fragment in a page of its own."""
    if request.htmx:
        return render(request, template, context)
    return render(request, "history/record_part.html", {**context, "part": template, "title": title})


def record(request: HttpRequest, game_id: int) -> HttpResponse:
    game = finished_game_or_404(request, game_id)
    names = game.seat_names()
    table = Seating(tuple(names), None, game.target, game.peg_out_zone)
    sides = side_names(table)
    deals = _deals(game)
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
    kept = GameAnalysis.objects.filter(game=game).first() if analysable(game) and deals else None
    return render(request, "history/record.html", {
        "game": game, "names": names, "sides": sides, "games": games, "deals": deals,
        "entered": final["entered"],
        "winner": sides[winner] if winner is not None else "",
        "match_scores": " – ".join(f"{sides[i]} {s}" for i, s in enumerate(final["match_scores"])),
        "rating_changes": changes, "seat": seat,
        "tournament": tournament, "note": ending.note if ending else "",
        "analysed": analysable(game) and bool(deals),
        # A kept analysis without a discard to judge (every lay-away the site's) has no panel.
        "discards_judged": kept is None or bool(kept.discards["verdicts"]),
        "duration": _duration(game),
    })


def record_deal(request: HttpRequest, game_id: int, game_no: int, deal_no: int) -> HttpResponse:
    """One deal of the record: the hands, the play and the show."""
    game = finished_game_or_404(request, game_id)
    deal = next((d for d in _deals(game) if (d["game_no"], d["deal_no"]) == (game_no, deal_no)), None)
    if deal is None:
        raise Http404("This game has no such deal.")
    title = f"Deal {deal['number']}" + (f" of game {deal['game_number']}" if game.match_games > 1 else "")
    return _part(request, "history/_deal.html", {
        "game": game, "d": deal, "entered": bool((final_result(game) or {}).get("entered"))}, title)


def record_verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every deal's seed and commitment, which the reader's browser checks (``static/js/verify.js``)."""
    game = finished_game_or_404(request, game_id)
    deals = _deals(game)
    if not deals:
        raise Http404("No deal was played in this game.")
    return _part(request, "history/_verify.html", {
        "game": game, "deals": deals,
        "verify_data": [
            {"id": f"verify-{d['game_no']}-{d['deal_no']}", "seed": d["seed"], "commitment": d["commitment"],
             "dealer": d["dealer"], "players": d["players_count"], "hands": d["hands"],
             "crib_card": d["crib_card"], "starter": d["starter"]}
            for d in deals
        ],
    }, "Were the deals fair?")


def record_analysis(request: HttpRequest, game_id: int, kind: str) -> HttpResponse:
    """The discard or the pegging analysis, as kept (``GameAnalysis``); "being prepared" until then."""
    game = finished_game_or_404(request, game_id)
    if kind not in ANALYSES or not analysable(game):
        raise Http404("This game has no such analysis.")
    template, verdict = ANALYSES[kind]
    kept = GameAnalysis.objects.filter(game=game).first()
    title = "Discard analysis" if kind == "discards" else "Pegging analysis"
    if kept is None:
        return _part(request, "history/_analysis_pending.html", {
            "game": game, "kind": kind, "poll": POLL_SECONDS}, title)
    report = from_data(kept.discards if kind == "discards" else kept.pegging, verdict)
    return _part(request, template, {"game": game, "names": game.seat_names(), "report": report}, title)
