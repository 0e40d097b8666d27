"""'Your turn': the games at your own pace waiting on you; email choices and vacation; the
unsubscribe link of every email; a claim on time or more time given, from a game's board."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.correspondence import clock, services, tokens
from games.correspondence.forms import NoticeForm, VacationForm
from games.correspondence.lists import games_in_progress
from games.correspondence.models import Vacation
from games.play.services import ServiceError
from games.play.views.game import service_post


def _vacation(user) -> Vacation | None:
    """The player's vacation if they are on one now."""
    return Vacation.objects.filter(user=user, until__gt=clock.now()).first()


@login_required
def your_turn(request: HttpRequest) -> HttpResponse:
    mine, theirs = games_in_progress(request.user)
    return render(request, "correspondence/your_turn.html", {
        "mine": mine, "theirs": theirs, "vacation": _vacation(request.user),
    })


def _settings_context(request: HttpRequest, **forms) -> dict:
    prefs = services.preferences_of(request.user.pk)
    at = clock.now()
    record = Vacation.objects.filter(user=request.user).first()
    used = record.seconds_used if record and record.year == clock.vacation_year(at) else 0
    return {
        "notice_form": forms.get("notice_form") or NoticeForm(
            initial={"turn_notices": prefs.turn_notices, "digest": prefs.digest}),
        "vacation_form": forms.get("vacation_form") or VacationForm(),
        "vacation": _vacation(request.user),
        "vacation_days_left": (clock.VACATION_DAYS_A_YEAR * 86400 - used) // 86400,
        "has_email": bool(request.user.email),
    }


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = NoticeForm(request.POST)
        if form.is_valid():
            services.preferences_save(user=request.user, turn_notices=form.cleaned_data["turn_notices"],
                                      digest=form.cleaned_data["digest"])
            messages.success(request, "Your email choices are saved.")
            return redirect("correspondence:settings")
        return render(request, "correspondence/settings.html", _settings_context(request, notice_form=form),
                      status=400)
    return render(request, "correspondence/settings.html", _settings_context(request))


@login_required
@require_POST
def vacation(request: HttpRequest) -> HttpResponse:
    if request.POST.get("end"):
        try:
            services.vacation_end(user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "Welcome back: your clocks run again.")
        return redirect("correspondence:settings")
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            taken = services.vacation_start(user=request.user, days=form.cleaned_data["days"])
        except ServiceError as exc:
            form.add_error("days", exc.message)
        else:
            messages.success(request, f"Your clocks stop until {taken.until:%d %b %Y, %H:%M} UTC.")
            return redirect("correspondence:settings")
    return render(request, "correspondence/settings.html", _settings_context(request, vacation_form=form),
                  status=400)


# The link works with one click from the email (a GET), and mail programs' own unsubscribe button
# posts to it (RFC 8058) with no session and no CSRF token: the signed token is the proof.
@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    found = tokens.read(token)
    if found is None:
        return render(request, "correspondence/unsubscribed.html", {"bad": True}, status=400)
    user_id, kind = found
    services.unsubscribe(user_id=user_id, kind=kind)
    return render(request, "correspondence/unsubscribed.html", {"kind": kind})


@login_required
@require_POST
def claim_on_time(request: HttpRequest, game_id: int) -> HttpResponse:
    return service_post(request, game_id, services.game_claim_on_time)


@login_required
@require_POST
def give_time(request: HttpRequest, game_id: int) -> HttpResponse:
    return service_post(request, game_id, services.game_give_time)
