"""Learn by playing: the page that starts or resumes a lesson, the coach's hide/show switch on the
board, and the normal game a lesson's end offers. Each change is a POST answered by a redirect (or,
from the board with htmx, by the board itself)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.play.board.player import board_answer, board_context, board_html
from games.practice.lesson import services
from games.practice.services import PracticeError


@require_GET
def lesson(request: HttpRequest) -> HttpResponse:
    in_hand = services.lesson_in_hand(request.user) if request.user.is_authenticated else None
    # The sign-in page is the accounts app's, above this one: reached through LOGIN_URL.
    login_url = redirect_to_login(request.get_full_path()).url
    return render(request, "practice/lesson.html", {"in_hand": in_hand, "login_url": login_url})


@require_POST
@login_required
def lesson_start(request: HttpRequest) -> HttpResponse:
    return redirect(services.lesson_start(user=request.user))


@require_POST
@login_required
def lesson_coach(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = services.lesson_coach_toggle(user=request.user, game_id=game_id)
    except PracticeError as e:
        return HttpResponse(str(e), status=e.status, content_type="text/plain")
    if request.htmx:
        return board_answer(board_html(board_context(game, request.user), request), game)
    return redirect(game)


@require_POST
@login_required
def lesson_normal_game(request: HttpRequest) -> HttpResponse:
    return redirect(services.normal_game(user=request.user))
