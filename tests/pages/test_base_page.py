"""What every page loads."""

from __future__ import annotations

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)  # as `make run` serves
def test_pages_load_htmx_without_the_debug_helper_that_replaces_the_page_on_a_refusal(client):
    html = client.get("/").content.decode()
    # htmx and idiomorph's morph extension (vendored); the sockets are the site's own (js/socket.js).
    assert "django_htmx/htmx-2.min.js" in html and "vendor/idiomorph-ext.min.js" in html
    assert "hx-ws" not in html
    # django-htmx's helper swaps a 400/403/404 answer in for the whole document; the site's htmx
    # config swaps refusals into their target instead (the board's, the hand counter's messages).
    assert "django-htmx.js" not in html
    assert '"code": "4..", "swap": true' in html


def test_a_missing_page_has_the_site_around_it(client):
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404 and "Nothing here" in html
    assert '<nav aria-label="Main">' in html and 'href="/"' in html


def test_the_standalone_server_error_page_needs_nothing():
    from django.template.loader import render_to_string

    html = render_to_string("500_standalone.html")  # as the handler draws it when the frame fails
    assert "Something went wrong on our side" in html and "/static/css/site.css" in html
