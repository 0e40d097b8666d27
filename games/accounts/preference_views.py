"""Changing the table preferences: from the board (htmx, answered with 204: the page already acts
on the switch) or from the account page (a plain form, answered by going back)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from games.accounts.preferences import FIELDS, preferences_set

ON = ("on", "true", "1")
OFF = ("off", "false", "0", "")


@login_required
@require_POST
def table_preferences(request: HttpRequest) -> HttpResponse:
    """Both switches come with every submission (an unticked box sends nothing, so it reads as off)."""
    changes = {}
    for name in FIELDS:
        value = request.POST.get(name, "").strip().lower()
        if value not in ON + OFF:
            return HttpResponse(f"“{name}” is on or off.", status=400, content_type="text/plain")
        changes[name] = value in ON
    preferences_set(user=request.user, **changes)
    if request.htmx:
        return HttpResponse(status=204)
    messages.success(request, "Table preferences saved.")
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return HttpResponseRedirect(back)  # a URL, never a view name ("0" is not a page to look up)
    return redirect("profile", request.user.get_username())
