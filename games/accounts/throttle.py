"""Failed log-ins, limited: counted per address and username and per address
(``RATE_LIMIT_LOGIN_FAILURES``, ``RATE_LIMIT_LOGIN_FAILURES_PER_IP``, in play's counters,
``games.play.ratelimit``). Failures are counted from Django's ``user_login_failed`` signal, so the
admin's log-in counts too; :class:`LoginThrottleMiddleware` then refuses every attempt, right or
wrong, until the window passes, with 429 and the log-in page (plain text for the admin's)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render, resolve_url
from django.urls import NoReverseMatch, reverse

from games.play.ratelimit import Rate, client_ip, hit, over, retry_after, setting_rate

log = logging.getLogger("games.accounts")

LOGIN_MESSAGE = "Too many failed log-ins for this account from your address. Wait a minute and try again."


def _login_idents(request: HttpRequest | None, username: str) -> list[tuple[str, str, Rate | None]]:
    ip = client_ip(request)
    return [
        ("login", f"{ip}|{username.strip().lower()}", setting_rate("RATE_LIMIT_LOGIN_FAILURES")),
        ("login-ip", ip, setting_rate("RATE_LIMIT_LOGIN_FAILURES_PER_IP")),
    ]


def login_blocked(request: HttpRequest, username: str) -> Rate | None:
    """The limit that blocks log-ins for ``username`` from this address, or None."""
    for scope, ident, rate in _login_idents(request, username):
        if over(scope, ident, rate):
            return rate
    return None


@receiver(user_login_failed, dispatch_uid="games.accounts.throttle.count_login_failure")
def count_login_failure(sender, credentials: dict, request: HttpRequest | None = None, **kwargs) -> None:
    username = str(credentials.get("username", ""))
    for scope, ident, rate in _login_idents(request, username):
        hit(scope, ident, rate)
    log.info("user=- action=login_failed ip=%s", client_ip(request))


def _login_paths() -> set[str]:
    paths = {resolve_url(settings.LOGIN_URL)}
    with contextlib.suppress(NoReverseMatch):  # a project without the admin
        paths.add(reverse("admin:login"))
    return paths


class LoginThrottleMiddleware:
    """Refuses log-in POSTs (the site's and the admin's) while their address and username are over
    the failure limit: 429 with the log-in page and a message, or plain text for the admin."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.paths = _login_paths()
        self.site_login = resolve_url(settings.LOGIN_URL)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in self.paths:
            username = request.POST.get("username", "")
            rate = login_blocked(request, username)
            if rate is not None:
                log.warning("user=- action=rate_limited scope=login ip=%s", client_ip(request))
                return self._refuse(request, username, rate)
        return self.get_response(request)

    def _refuse(self, request: HttpRequest, username: str, rate: Rate) -> HttpResponse:
        if request.path == self.site_login:
            messages.error(request, LOGIN_MESSAGE)
            form = AuthenticationForm(request, initial={"username": username[:150]})
            context = {"form": form, "next": request.POST.get("next", "")}
            response = render(request, "registration/login.html", context, status=429)
        else:
            response = HttpResponse(LOGIN_MESSAGE, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(retry_after(rate))
        return response
