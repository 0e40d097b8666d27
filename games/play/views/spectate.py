"""A game's board for spectators: the table as everyone sees it, followed over a socket."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.play.board import spectator
from games.play.models import Game
from games.play.registry import organiser_of


def watch(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.for_play(game_id)
    if game is not None and game.state is not None and game.seat_of(request.user) is not None:
        return redirect(game)  # a player watches from their own seat
    refused = spectator.refusal(game, request.user)
    if refused is not None:
        status = 403 if refused == spectator.PRIVATE else 404
        return render(request, "play/watch_refused.html", {"reason": refused}, status=status)
    names = game.seat_names()
    return render(request, "play/watch.html", {
        "game": game, "board": spectator.watch_html(game), "organised": organiser_of(game),
        "title": " v ".join(names) if len(names) == 2 else ", ".join(names),
    })
