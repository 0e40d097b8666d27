"""Pass and play: the form that seats the table, and the tap that shows a player their hand."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.play import services
from games.play.models import Game
from games.play.pass_play_form import PassPlayForm
from games.play.views.game import _board_response, _redirect_with_calls, board_tab, not_your_game


@login_required
def new_pass_play(request: HttpRequest) -> HttpResponse:
    form = PassPlayForm(request.POST or None, prefix="pass")
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create_pass_and_play(
                user=request.user, rules=form.house_rules(), seats=form.cleaned_data["seats"]
            )
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(game)
    status = 400 if request.method == "POST" else 200
    return render(request, "play/pass_play_new.html", {"form": form}, status=status)


@login_required
@require_POST
def show_hand(request: HttpRequest, game_id: int) -> HttpResponse:
    """"I'm Ann, show my hand": the seat comes from the pass screen's form and must be the one the
    server is waiting to pass to; the board is then drawn for it from what the game holds."""
    seat = request.POST.get("seat", "")
    try:
        services.game_show_hand(
            user=request.user, game_id=game_id, seat=int(seat) if seat.isdigit() else -1,
            origin=board_tab(request),
        )
    except services.NotAPlayer:
        return not_your_game(request)
    except services.ServiceError as exc:
        game = get_object_or_404(Game.objects.with_seats(), pk=game_id)
        if not request.htmx:
            messages.error(request, exc.message)
            return redirect(game)
        return _board_response(request, game, status=exc.status, error=exc.message)
    game = Game.objects.with_seats().get(pk=game_id)
    return _board_response(request, game) if request.htmx else _redirect_with_calls(request, game)
