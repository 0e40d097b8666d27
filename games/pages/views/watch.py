"""Watch: the live games anyone may open as a spectator, updated as they are played."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from games.pages import watching


def watch(request: HttpRequest) -> HttpResponse:
    # The list is drawn once for everyone and kept (watching.list_html): it holds no form and
    # nothing of the reader's.
    return render(request, "pages/watch.html", {"watch_list": mark_safe(watching.list_html())})
