"""The server error page: the site around it when it can be drawn, a standalone page when not.

Django's own handler draws ``500.html`` without the request, so the header would not know who is
logged in; and what failed may be what the site's frame needs (the session, the database), so a
failure to draw the frame falls back to a page that needs nothing. Neither ever shows the error.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template.loader import render_to_string
from django.views.decorators.csrf import requires_csrf_token

log = logging.getLogger(__name__)

PLAIN = "Something went wrong on our side. Reload the page in a moment."


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    if request.headers.get("HX-Request") == "true":  # a fragment's target: words, not a whole page
        return HttpResponseServerError(PLAIN, content_type="text/plain; charset=utf-8")
    try:
        return HttpResponseServerError(render_to_string("500.html", request=request))
    except Exception:  # the frame itself failed: the page that needs nothing
        log.warning("path=%s action=server_error_standalone", request.path, exc_info=True)
    try:
        return HttpResponseServerError(render_to_string("500_standalone.html"))
    except Exception:
        return HttpResponseServerError(PLAIN, content_type="text/plain; charset=utf-8")
