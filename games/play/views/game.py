"""The board: one page, updated by htmx partials; every action is a POST to the service layer.

htmx requests get the ``#board`` partial (with a message and a 4xx on a refusal); plain requests
get a redirect back to the page, so the board works, more slowly, without JavaScript.
"""

from __future__ import annotations

import contextlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from games.infra import timeline
from games.play import broadcast, presence, ratelimit, services, signals
from games.play.board import spectator
from games.play.board.player import announce_html, board_answer, board_context, board_html
from games.play.board.status import presence_context
from games.play.models import Game
from games.play.registry import next_waiting

ACTION_FIELDS = ("type", "position", "card", "points")


def _board_response(request: HttpRequest, game: Game, *, status: int = 200, error: str = "") -> HttpResponse:
    if game.state is None:  # a seek not accepted yet, or withdrawn: there is no board to show
        if not request.htmx:
            if error:
                messages.error(request, error)
            return redirect("invitation", token=game.invite_token)
        return HttpResponse(error or "This game has not started.", status=status if status >= 400 else 409)
    context = board_context(game, request.user, error=error)
    if error and request.POST.get("type") == "count":  # a refused count keeps what was typed
        claimed = request.POST.get("points", "")
        context["claimed"] = claimed if claimed.isdigit() and len(claimed) <= 2 else ""
    board = board_html(context, request)
    if request.htmx:
        return board_answer(board, game, status=status)
    # The status line starts empty: reopening a page must not call out a move made long ago. After
    # a move posted without JavaScript the page is the move's answer, and it calls the move out.
    calls = context["calls"] if request.session.pop(CALLS_KEY, None) == game.pk else []
    context.update(board=board, announce=announce_html(calls),
                   tab=broadcast.new_tab_id(),  # the whole page: its socket and its htmx requests carry it
                   # A socket not heard from for a few heartbeats is dead (socket.js replaces it).
                   heartbeat_ms=int(presence.HEARTBEAT_SECONDS * 1000))
    return render(request, "play/board.html", context, status=status)


CALLS_KEY = "calls_for_game"


def _redirect_with_calls(request: HttpRequest, game: Game) -> HttpResponse:
    """Without JavaScript a move is answered by a redirect to the board: the board it leads to
    shows that move's calls ("Fifteen for 2") once, as htmx's answer would."""
    request.session[CALLS_KEY] = game.pk
    return redirect(game)


def not_your_game(request: HttpRequest, game: Game | None = None) -> HttpResponse:
    """403 for someone without a seat: a page with the site around it, or a short line for htmx.
    The page offers to watch ``game`` where anyone may."""
    if request.htmx:
        return HttpResponse("This is not your game.", status=403, content_type="text/plain")
    watch = game is not None and spectator.refusal(game, request.user) is None
    return render(request, "play/not_your_game.html", {"watch_url": reverse("watch_game", args=[game.pk])
                                                       if watch else ""}, status=403)


@login_required
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.with_seats(), pk=game_id)
    if game.seat_of(request.user) is None:
        return not_your_game(request, game)
    if game.state is None:  # a seek not accepted yet, or withdrawn: there is no board
        return redirect("invitation", token=game.invite_token)
    if game.pass_play is not None and not request.htmx and request.session.get(CALLS_KEY) != game.pk:
        # Opened afresh (resumed, reloaded): the device may be in anyone's hands, so the pass
        # screen comes first. The page a move without JavaScript leads back to keeps its hand.
        services.game_cover_hands(user=request.user, game_id=game.pk)
        game.refresh_from_db()
    if game.organised:
        signals.board_served.send(sender=Game, game_id=game.pk, user=request.user)
    if not request.htmx and not game.days_per_move and services.computer_to_act(game):
        # Without JavaScript nothing would fetch the computer's moves one at a time: make them now
        # (at your own pace its task makes them, board open or not).
        with contextlib.suppress(services.ServiceError):  # another page won the race: show the board
            services.play_computer_turns(game.pk)
        game.refresh_from_db()
    return _board_response(request, game)


def board_tab(request: HttpRequest) -> str:
    """The page a request comes from (``X-Board-Tab``, set by board.html for htmx): its socket is
    not pushed the board the answer already carries."""
    return broadcast.tab_id(request.headers.get("X-Board-Tab", ""))


@login_required
@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    timeline.mark("view", game=game_id)
    action = {k: request.POST[k] for k in ACTION_FIELDS if k in request.POST}
    if request.POST.getlist("cards"):
        action["cards"] = request.POST.getlist("cards")
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    try:
        ratelimit.check_move(request.user)  # 429 with the board and a message, like any refusal
        # The service locks the game and checks the seat itself: the hot path reads the game once.
        outcome = services.game_act(
            user=request.user, game_id=game_id, version=version, action=action, origin=board_tab(request)
        )
    except services.AlreadyMade:
        # A page sending again a move whose answer it lost: the move stands, the answer is the board,
        # marked as a replay (the header payment APIs use for an idempotent retry) for any client
        # that counts what it made.
        game = Game.objects.with_seats().get(pk=game_id)
        response = _board_response(request, game) if request.htmx else redirect(game)
        response["Idempotent-Replayed"] = "true"
        return response
    except services.ServiceError as exc:
        game = get_object_or_404(Game.objects.with_seats(), pk=game_id)
        if game.seat_of(request.user) is None:
            return not_your_game(request)
        if not request.htmx:
            messages.error(request, exc.message)
            return redirect(game)
        return _board_response(request, game, status=exc.status, error=exc.message)
    game = outcome.game
    # At your own pace a computer left to act moves from its task (games.play.tasks), not here.
    if game.days_per_move and (following := next_waiting(game, request.user)):
        # At your own pace, a move made opens the next game waiting on the player, as turn-based
        # game apps do; the board just left shows what came of the move when they come back.
        if not request.htmx:
            return redirect("game", game_id=following)
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("game", args=[following])
        return response
    if not request.htmx:
        return _redirect_with_calls(request, game)
    if game.status != Game.Status.ACTIVE:  # the end of a game ran the finish hooks: read it afresh
        game = Game.objects.with_seats().get(pk=game.pk)
    response = _board_response(request, game)
    timeline.mark("answered", game=game_id, version=game.version)
    return response


@login_required
@require_POST
def computer_step(request: HttpRequest, game_id: int) -> HttpResponse:
    """One computer action (the board asks for it after a short pause, so plays appear one by one).
    At your own pace the computer's task moves (a board from before says so): the board is the answer."""
    game = get_object_or_404(Game.objects.with_seats(), pk=game_id)
    if game.seat_of(request.user) is None:
        return not_your_game(request, game)
    if game.has_computer and not game.days_per_move:
        # Two pages (or a page and a push) may ask at once; the loser of the race just gets the board.
        with contextlib.suppress(services.ServiceError):
            services.game_computer_step(game_id=game.pk, origin=board_tab(request), asked_by=request.user.pk)
        game = Game.objects.for_play(game.pk)
    if not request.htmx:
        return _redirect_with_calls(request, game)
    return _board_response(request, game)


def service_post(request: HttpRequest, game_id: int, call, *, quiet: bool = False) -> HttpResponse:
    """Run a service for a player and answer with the board (htmx) or a redirect (no JavaScript):
    ``call(user=, game_id=)``, a service of play's or of an app above it."""
    game = get_object_or_404(Game.objects.with_seats(), pk=game_id)
    if game.seat_of(request.user) is None:
        return not_your_game(request, game)
    error, status = "", 200
    try:
        call(user=request.user, game_id=game.pk)
    except services.ServiceError as exc:
        error, status = ("", 200) if quiet else (exc.message, exc.status)
    game.refresh_from_db()
    if game.status == Game.Status.ABORTED and not error:
        messages.success(request, "Game called off: it does not count.")
    if not request.htmx:
        if error:
            messages.error(request, error)
        if game.status == Game.Status.ABORTED:
            return redirect("lobby")
        return redirect(game) if error else _redirect_with_calls(request, game)
    if game.status == Game.Status.ABORTED:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("lobby")
        return response
    return _board_response(request, game, status=status, error=error)


@login_required
@require_POST
def claim_win(request: HttpRequest, game_id: int) -> HttpResponse:
    return service_post(request, game_id, services.game_claim_win)


@login_required
@require_POST
def abort(request: HttpRequest, game_id: int) -> HttpResponse:
    return service_post(request, game_id, services.game_abort)


@login_required
@require_POST
def timeout(request: HttpRequest, game_id: int) -> HttpResponse:
    # Both players' pages ask when the clock runs out; whoever comes second just gets the board.
    return service_post(request, game_id, services.game_timeout, quiet=True)


@login_required
def presence_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.with_seats(), pk=game_id)
    if game.seat_of(request.user) is None:
        return not_your_game(request, game)
    return render(request, "play/_presence.jinja", presence_context(game, request.user))


@login_required
@require_POST
def say(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.game_say(user=request.user, game_id=game_id, message=request.POST.get("message", ""))
    except services.ServiceError as exc:
        if not request.htmx:
            messages.error(request, exc.message)
            return redirect("game", game_id=game_id)
        html = format_html(
            '<p id="chat-line" class="chat-line chat-line--error" role="status" hx-swap-oob="true">{}</p>',
            exc.message,
        )
        return HttpResponse(html, status=exc.status)
    if not request.htmx:
        return redirect("game", game_id=game_id)
    return HttpResponse(status=204)
