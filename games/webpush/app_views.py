"""The site as an installable app: the web app manifest, the service worker and the page it shows
when the network is gone.

The service worker is served by Django at the site's root, not by whitenoise under /static/: a
worker controls only the pages under the folder its script is served from, and the header
``Service-Worker-Allowed`` widens that only where the server says so.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_GET

OFFLINE_PATH = "/offline/"
# --brand and --paper in static/css/site.css (a test keeps them equal): the phone's bar and the
# splash screen in the site's own colours.
THEME_COLOUR = "#14532d"
BACKGROUND_COLOUR = "#f6f4ef"

ICONS = [
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/maskable-192.png", 192, "maskable"),
    ("icons/maskable-512.png", 512, "maskable"),
]
BADGE = "icons/badge-96.png"  # white on transparent: Android draws it in the status bar


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    body = {
        "id": "/",
        "name": "Cribbage Hall",
        "short_name": "Cribbage",
        "description": "Play cribbage online, against people or the computer.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for path, size, purpose in ICONS
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def _offline_html() -> str:
    return render_to_string("webpush/offline.html")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows for any page it cannot fetch. It holds nothing of any
    player (it is drawn without the request), so one copy serves every visitor."""
    response = HttpResponse(_offline_html())
    # Kept by the service worker's cache only. The header goes along with that copy, and a page
    # served no-store is never held in the back/forward cache, where a stale "offline" would wait
    # to reappear (or reload itself from there) when the network is back.
    response["Cache-Control"] = "no-store"
    return response


def _precache() -> list[str]:
    """Everything the offline page needs, and the notification's icons: all of it the same for every
    visitor. Never a page with a game on it."""
    return [OFFLINE_PATH, static("css/site.css"), static("favicon.svg"), static(ICONS[0][0]), static(BADGE)]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    precache = _precache()
    config = {"precache": precache, "offline": OFFLINE_PATH, "icon": static(ICONS[0][0]),
              "badge": static(BADGE)}
    source = render_to_string("webpush/sw.js", {"config": json.dumps(config)})
    # A new name whenever what is kept changes (a new static hash, another offline page): the browser
    # sees a new worker, which fills the new cache and deletes the old one.
    digest = hashlib.sha256((source + _offline_html()).encode()).hexdigest()[:12]
    response = HttpResponse(source.replace("__CACHE_VERSION__", digest),
                            content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
