"""The site as an installable app: the manifest and its icons, the service worker served at the root
with the headers that let it control every page, the offline page, and the account page's switch."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client, override_settings
from django.urls import reverse

from games.webpush import app_views
from tests.play.factories import logged_in, make_user

ROOT = Path(settings.BASE_DIR)


def _png_size(path: str) -> tuple[int, int]:
    head = Path(path).read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def _css_variable(name: str) -> str:
    css = (ROOT / "static" / "css" / "site.css").read_text()
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]+)", css).group(1).lower()


def test_the_manifest_makes_the_site_installable():
    answer = Client().get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == "Cribbage Hall" and manifest["short_name"] == "Cribbage"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] == _css_variable("brand")
    assert manifest["background_color"] == _css_variable("paper")
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {(f"{n}x{n}", purpose) for n in (192, 512) for purpose in ("any", "maskable")} <= purposes
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        path = finders.find(icon["src"].removeprefix(settings.STATIC_URL))
        assert path, icon["src"]
        size = int(icon["sizes"].split("x")[0])
        assert _png_size(path) == (size, size)


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_the_theme_colour():
    html = Client().get(reverse("home")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert f'<meta name="theme-color" content="{_css_variable("brand")}">' in html
    assert finders.find("icons/apple-touch-icon.png")


def test_the_service_worker_is_served_at_the_root_for_the_whole_site():
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert answer["Cache-Control"] == "no-cache"
    source = answer.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*\});", source).group(1))
    # It keeps the offline page and static files, never a page of the site's game state.
    assert config["offline"] == "/offline/"
    assert config["precache"][0] == "/offline/"
    assert all(url.startswith(settings.STATIC_URL) for url in config["precache"][1:])
    assert re.search(r'const CACHE = "cribbage-offline-[0-9a-f]{12}";', source)
    for handler in ("install", "activate", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{handler}"' in source
    assert 'request.method !== "GET"' in source
    assert "cache.put" not in source  # nothing fetched is ever stored


def test_the_cache_is_renamed_when_what_it_keeps_changes(monkeypatch):
    first = Client().get("/sw.js").content
    assert Client().get("/sw.js").content == first
    monkeypatch.setattr(app_views, "_offline_html", lambda: "<p>another offline page</p>")
    assert Client().get("/sw.js").content != first


def test_the_offline_page_holds_no_player_and_no_game():
    answer = Client().get("/offline/")
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "no-store"  # never in the back/forward cache
    html = answer.content.decode()
    assert "You are offline" in html
    assert "csrf" not in html.lower() and 'id="board"' not in html


@pytest.mark.django_db
def test_the_account_page_offers_the_switch_when_push_is_set_up():
    ann = make_user("ann")
    html = logged_in(ann).get(reverse("profile", args=["ann"])).content.decode()
    assert "Browser notifications" in html
    assert f'data-key="{settings.VAPID_PUBLIC_KEY}"' in html
    assert 'data-subscribe="/push/subscribe/"' in html
    assert 'role="switch"' in html
    # Only on one's own page.
    other = logged_in(make_user("bob")).get(reverse("profile", args=["ann"])).content.decode()
    assert "Browser notifications" not in other


@pytest.mark.django_db
@override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="")
def test_without_vapid_keys_the_account_page_says_so_and_offers_no_switch():
    html = logged_in(make_user("ann")).get(reverse("profile", args=["ann"])).content.decode()
    assert "Browser notifications are not set up on this site." in html
    assert 'role="switch"' not in html and "push.js" not in html
