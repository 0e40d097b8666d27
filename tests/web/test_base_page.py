"""What every page loads."""

from __future__ import annotations

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)  # as `make run` serves
def test_pages_load_htmx_without_the_debug_helper_that_replaces_the_page_on_a_refusal(client):
    html = client.get("/").content.decode()
    assert "django_htmx/htmx-2.min.js" in html and "django_htmx/ext/hx-ws-2.min.js" in html
    # django-htmx's helper swaps a 400/403/404 answer in for the whole document; the site's htmx
    # config swaps refusals into their target instead (the board's, the hand counter's messages).
    assert "django-htmx.js" not in html
    assert '"code": "4..", "swap": true' in html
