"""The lobby: start a game against the computer, post a seek or invite someone, see my games."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from games.engine.view import view
from games.play import services
from games.play.board.table import seat_names
from games.play.forms import ComputerGameForm, SeekForm, TableForm
from games.play.game_result import final_result
from games.play.models import Game
from games.play.registry import computer_defaults, organised, player_notices


def lobby_context(user) -> dict:
    mine = Game.objects.for_user(user).prefetch_related("seats__user")
    in_progress, finished = list(mine.in_progress()[:50]), list(mine.finished().order_by("-finished_at")[:10])
    events = organised(g.pk for g in in_progress + finished)  # a tournament's row names it
    return {
        "user": user,
        "organiser_notices": player_notices(user),
        "in_progress": [game_row(g, user, events.get(g.pk)) for g in in_progress],
        "finished": [game_row(g, user, events.get(g.pk)) for g in finished],
        "my_seeks": [
            {"game": g, "waiting_for": _invitees_to_come(g)}
            for g in Game.objects.filter(seats__user=user, status=Game.Status.WAITING)
            .select_related("invited")
            .prefetch_related("seats__user", "invitees")
            .distinct()
        ],
        "invitations": Game.objects.filter(Q(invited=user) | Q(invitees=user), status=Game.Status.WAITING)
        .exclude(seats__user=user)
        .select_related("created_by")
        .distinct(),
        # Only tables with a seat this viewer may take: one whose last seat is kept for an invited
        # player is that player's invitation, not a seek.
        "open_seeks": [
            {"game": g, "seats": seats}
            for g in Game.objects.open_seeks().exclude(seats__user=user).select_related("created_by")
            .prefetch_related("seats__user")[:50]
            if (seats := _free_seats(g, user))
        ],
    }


def _invitees_to_come(game: Game) -> list[str]:
    """The invited players of a table who have not taken their seat yet."""
    seated = {s.user_id for s in game.seats.all()}
    return [u.username for u in game.invitees.all() if u.pk not in seated]


def _free_seats(game: Game, user) -> list[dict]:
    """The seats a player may take, named so partners can choose each other."""
    names = {s.index: s.display_name for s in game.seats.all()}
    out = []
    for index in game.open_seat_indexes(user):
        label = f"seat {index + 1}"
        if game.players == 4:
            partner = names.get((index + 2) % 4)
            label += f", partner of {partner}" if partner else ", partner of the open seat opposite"
        out.append({"index": index, "label": label})
    return out


def forms_context(user=None, **forms) -> dict:
    """The lobby's three forms; the computer's starts as the player's last game against it did."""
    return {
        "computer_form": forms.get("computer_form")
        or ComputerGameForm(prefix="cpu", initial=computer_defaults(user) if user is not None else None),
        "seek_form": forms.get("seek_form") or SeekForm(prefix="seek"),
        "table_form": forms.get("table_form") or TableForm(prefix="table"),
    }


def render_lobby_lists(user, csrf_token: str = "") -> str:
    """The lists part of the lobby for one user, as an out-of-band swap (pushed over the socket).
    ``csrf_token``: the socket's own, so the forms in what is pushed still post."""
    context = {**lobby_context(user), "oob": True, "csrf_token": csrf_token}
    return render_to_string("play/lobby.html#lobby-lists", context)


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    context = {**lobby_context(request.user), **forms_context(request.user)}
    return render(request, "play/lobby.html", context)


@login_required
@require_POST
def new_computer_game(request: HttpRequest) -> HttpResponse:
    form = ComputerGameForm(request.POST, prefix="cpu")
    if not form.is_valid():
        context = {**lobby_context(request.user), **forms_context(computer_form=form)}
        return render(request, "play/lobby.html", context, status=400)
    game = services.game_create_vs_computer(
        user=request.user, level=form.cleaned_data["level"], rules=form.house_rules(),
        hints=form.cleaned_data["hints"], private=form.cleaned_data["private"],
    )
    return redirect(game)


@login_required
@require_POST
def new_seek(request: HttpRequest) -> HttpResponse:
    form = SeekForm(request.POST, prefix="seek")
    if form.is_valid():
        try:
            game = services.game_create_seek(
                user=request.user, rules=form.house_rules(), rated=form.cleaned_data["rated"],
                invited=form.cleaned_data["opponent"], turn_timer=form.cleaned_data["turn_timer"],
                hints=form.cleaned_data["hints"], days_per_move=form.cleaned_data["days_per_move"],
                private=form.cleaned_data["private"],
            )
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            if game.invited_id:
                messages.success(request, f"Invitation sent to {game.invited.username}.")
            else:
                messages.success(request, "Your seek is posted; the game opens when someone accepts.")
            return redirect("lobby")
    context = {**lobby_context(request.user), **forms_context(request.user, seek_form=form)}
    return render(request, "play/lobby.html", context, status=400)


@login_required
@require_POST
def new_table(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST, prefix="table")
    if form.is_valid():
        try:
            game = services.game_create_table(
                user=request.user, rules=form.house_rules(), seats=form.cleaned_data["seats"],
                turn_timer=form.cleaned_data["turn_timer"], days_per_move=form.cleaned_data["days_per_move"],
                private=form.cleaned_data["private"],
            )
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            if game.status == Game.Status.ACTIVE:
                return redirect(game)
            messages.success(request, "Your table is posted; it starts when every seat is filled.")
            return redirect("lobby")
    context = {**lobby_context(request.user), **forms_context(request.user, table_form=form)}
    return render(request, "play/lobby.html", context, status=400)


@login_required
@require_POST
def accept(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        seat = request.POST.get("seat")
        game = services.game_accept(
            user=request.user, game_id=game_id, token=request.POST.get("token"),
            seat=int(seat) if seat and seat.isdigit() else None,
        )
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby") if not request.htmx else HttpResponse(exc.message, status=exc.status)
    if game.status == Game.Status.WAITING:
        messages.success(request, "You have a seat; the game starts when the table is full.")
        return redirect("lobby")
    return redirect(game)


def _back_to_lobby(request: HttpRequest, call, game_id: int, done: str) -> HttpResponse:
    """Run a lobby service for the user and go back to the lobby with what happened."""
    try:
        call(user=request.user, game_id=game_id)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.info(request, done)
    return redirect("lobby")


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return _back_to_lobby(request, services.game_leave, game_id, "You left the table.")


@login_required
@require_POST
def withdraw(request: HttpRequest, game_id: int) -> HttpResponse:
    return _back_to_lobby(request, services.game_withdraw, game_id, "Withdrawn.")


@login_required
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("created_by"), invite_token=token)
    if game.seat_of(request.user) is not None:
        if game.state is not None:
            return redirect(game)
        if game.status == Game.Status.WAITING:
            # One's own seek (or a seat taken at a table still filling) waits in the lobby, whose
            # socket opens the game the moment the last seat is taken; this page has none.
            messages.info(request, "Your table is waiting in the lobby: the game opens here by itself "
                                   "when the last seat is taken.")
            return redirect("lobby")
    return render(request, "play/invitation.html", {"game": game})


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """The same house rules again: straight away against the computer, as an invitation otherwise
    (or the opponent's own offer accepted); at a table, the same table, each taking their seat."""
    try:
        game = services.game_rematch(user=request.user, game_id=game_id)
    except services.RematchWaiting as exc:
        messages.info(request, exc.message)
        return redirect("game", game_id)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby")
    if game.status == Game.Status.WAITING:  # back to the finished board, which follows the acceptance
        offered = ("Rematch offered: the game opens when your opponent accepts." if game.players == 2
                   else "Your seat is taken: the rematch opens when every seat is.")
        messages.success(request, offered)
        return redirect("game", game_id)
    return redirect(game)


def game_row(game: Game, user, organised=None) -> dict:
    """One line of a "my games" list: opponent, score, and whose turn or the result (``organised``:
    the event the game belongs to, from ``games.play.registry.organised``)."""
    if game.pass_play is not None and game.state is not None:
        return pass_play_row(game)
    seat = game.seat_of(user)
    names = seat_names(game, seat)
    opponent = ", ".join(n for i, n in enumerate(names) if i != seat) or "—"
    if game.state is None:
        return {"game": game, "opponent": opponent, "score": "", "status": game.get_status_display()}
    row = {"game": game, "opponent": opponent, "organised": organised}
    v = view(services.load_state(game), seat)
    final = final_result(game) if game.status == Game.Status.FINISHED else None
    entered = bool(final and final["entered"])  # the director's result stands in place of the board's
    scores = final["scores"] if entered else v.scores
    match_scores = final["match_scores"] if entered else v.match_scores
    shown = [min(s, v.target) for s in scores]  # the winner stands in the game hole
    others = "–".join(str(s) for i, s in enumerate(shown) if i != v.side)
    score = f"{shown[v.side]}–{others}" if shown else "—"
    if game.status == Game.Status.FINISHED:
        status = "Won" if (final["winner"] if entered else v.match_winner) == v.side else "Lost"
        # The list says how: a resignation, or the director's word.
        row["resigned"] = entered or (bool(v.results) and v.results[-1].reason == "resign")
    elif game.status == Game.Status.ABORTED:
        status = "Aborted"
    elif v.my_turn:
        status = "Your turn"
    else:
        status = "Waiting for " + ", ".join(n for i, n in enumerate(names) if i != seat)
    # Rows of the same opponent tell apart by their terms, the match so far and when each moved.
    details = [" · ".join(game.rules_summary())]
    if v.rules.match_games > 1:
        others = (str(s) for i, s in enumerate(match_scores) if i != v.side)
        details.append(f"games {match_scores[v.side]}–" + "–".join(others))
    return {**row, "score": score, "status": status, "details": details, "moved_at": game.updated_at}


def pass_play_row(game: Game) -> dict:
    """A pass-and-play game's line: everyone at the table by the names typed, since the owner is
    all of its people at once, and who is to play or who won."""
    state = services.load_state(game)
    names = game.seat_names()
    sides = 3 if game.players == 3 else 2
    side_names = [" & ".join(names[s] for s in range(game.players) if s % sides == side)
                  for side in range(sides)]
    if game.status == Game.Status.FINISHED:
        status = f"{side_names[state.match_winner]} won" if state.match_winner is not None else "Finished"
    else:
        due = [names[s] for s in state.to_act]
        status = f"{' and '.join(due)} to play" if due else "In progress"
    return {"game": game, "opponent": f"Pass and play: {' v '.join(side_names)}",
            "score": "–".join(str(min(s, state.rules.target)) for s in state.scores), "status": status,
            "details": [" · ".join(game.rules_summary())], "moved_at": game.updated_at}
