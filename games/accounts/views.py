"""Sign-up, profiles and a player's own data (its download, deleting the account); log in, log out
and passwords are Django's own views.

Every account form answers an invalid submission with status 400 (the page re-rendered with its
errors), so tests and tools can tell "try again" from success without parsing HTML.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, user_login_failed
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from games.accounts.export import player_data
from games.accounts.forms import DeleteAccountForm, SignupForm
from games.accounts.services import account_delete
from games.accounts.throttle import LOGIN_MESSAGE, login_blocked
from games.play.ratelimit import retry_after
from games.play.services import ServiceError
from games.tournaments.services import TournamentError
from games.webpush.delivery import push_enabled

log = logging.getLogger("games.accounts")

INVALID_FORM_STATUS = 400


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Start a game below.")
        return redirect("lobby")
    status = INVALID_FORM_STATUS if form.errors else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    return render(request, "accounts/profile.html", {
        "player": player, "is_self": request.user == player,
        "push_on_site": push_enabled(), "push_public_key": settings.VAPID_PUBLIC_KEY,
    })


@login_required
@require_GET
def download_data(request: HttpRequest, username: str) -> HttpResponse:
    """Everything the site holds about the player (``games.accounts.export``), as a download. Only
    for the player themselves: anyone else gets the same 404 as for a name that does not exist."""
    if request.user.get_username() != username:
        raise Http404("No such page.")
    body = json.dumps(player_data(request.user), cls=DjangoJSONEncoder, indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(True, f"cribbage-hall-{username}.json")
    response["Cache-Control"] = "private, no-store"  # personal data: no copy kept on the way
    return response


@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    """The form (GET) and the deletion itself (POST only, with the password and a tick). A wrong
    password counts as a failed log-in, so the form cannot be used to guess one faster."""
    user = request.user
    posted = request.method == "POST"
    form = DeleteAccountForm(user, request.POST if posted else None)
    if posted:
        rate = login_blocked(request, user.get_username())
        if rate is not None:
            messages.error(request, LOGIN_MESSAGE)
            response = render(request, "accounts/delete.html", {"form": DeleteAccountForm(user)}, status=429)
            response["Retry-After"] = str(retry_after(rate))
            return response
        if form.is_valid():
            try:
                account_delete(user_id=user.pk)
            except (ServiceError, TournamentError) as exc:
                # A game or an event refused a step (it changed at that very moment): the whole
                # deletion was rolled back, so the account is as it was and can be deleted again.
                log.warning("user=%s action=account_delete refused=%r", user.pk, str(exc))
                form.add_error(None, "Your account could not be deleted just now, and nothing was "
                                     "changed. Please try again.")
                return render(request, "accounts/delete.html", {"form": form}, status=409)
            logout(request)
            return redirect("account_deleted")
        if "password" in form.errors:
            user_login_failed.send(sender=DeleteAccountForm, credentials={"username": user.get_username()},
                                   request=request)
    status = INVALID_FORM_STATUS if form.errors else 200
    return render(request, "accounts/delete.html", {"form": form}, status=status)


def account_deleted(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/deleted.html")


class InvalidFormStatus:
    """Mixin for Django's form views: an invalid form re-renders with status 400."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)  # type: ignore[misc]
        response.status_code = INVALID_FORM_STATUS
        return response


class LoginView(InvalidFormStatus, auth_views.LoginView):
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """Django's log-out, then a word on the home page it leads to (it showed nothing)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You are logged out. Thanks for playing.")
        return response


class PasswordChangeView(InvalidFormStatus, auth_views.PasswordChangeView):
    pass


class PasswordResetView(InvalidFormStatus, auth_views.PasswordResetView):
    pass


class PasswordResetConfirmView(InvalidFormStatus, auth_views.PasswordResetConfirmView):
    pass
