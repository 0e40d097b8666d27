"""403, 404 and 500 pages: the site around them, the refusal's message, never the failure itself."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.pages.error_urls import SECRET

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.pages.error_urls")]

NAV = '<nav aria-label="Main">'


@pytest.fixture
def client() -> Client:
    return Client(raise_request_exception=False)


def test_a_refusal_says_why_with_the_site_around_it(client):
    response = client.get("/fail/403/")
    html = response.content.decode()
    assert response.status_code == 403
    assert "Only the tournament&#x27;s directors can do this." in html and NAV in html
    assert "<h1>Not allowed</h1>" in html and "Log in" in html


def test_a_refusal_without_words_has_a_general_line(client):
    user = get_user_model().objects.create_user("alice", password=None)
    client.force_login(user)
    html = client.get("/fail/403-quiet/").content.decode()
    assert "You do not have permission" in html and ">alice<" in html  # the header knows who it is


def test_a_missing_page_does_not_repeat_the_reason_given_in_the_code(client):
    response = client.get("/fail/404/")
    html = response.content.decode()
    assert response.status_code == 404 and "Nothing here" in html and NAV in html
    assert SECRET not in html


def test_a_server_error_has_the_site_around_it_and_no_traceback(client):
    user = get_user_model().objects.create_user("alice", password=None)
    client.force_login(user)
    response = client.get("/fail/500/")
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in html and NAV in html and ">alice<" in html
    assert SECRET not in html and "Traceback" not in html and "RuntimeError" not in html


def test_a_server_error_whose_frame_fails_too_falls_back_to_the_standalone_page(client, monkeypatch):
    from games.pages.views import errors

    real = errors.render_to_string

    def frame_fails(name, context=None, request=None):
        if name == "500.html":
            raise RuntimeError("the session store is down")
        return real(name, context, request)

    monkeypatch.setattr(errors, "render_to_string", frame_fails)
    response = client.get("/fail/500/")
    html = response.content.decode()
    assert response.status_code == 500 and "Something went wrong on our side" in html
    assert "/static/css/site.css" in html and NAV not in html and "session store" not in html


def test_a_server_error_for_htmx_is_a_line_not_a_page(client):
    response = client.get("/fail/500/", headers={"HX-Request": "true"})
    assert response.status_code == 500 and response["Content-Type"].startswith("text/plain")
    assert SECRET not in response.content.decode()


def test_the_desk_refuses_a_stranger_in_words(db):
    from games.tournaments.models import Tournament
    from tests.tournaments.helpers import make_players, make_tournament

    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN)
    response = Client().post(f"/admin/tournaments/tournament/{t.pk}/desk/step/", {"step": "start"})
    html = response.content.decode()
    assert response.status_code == 403 and "Only the tournament&#x27;s directors can do this." in html
    assert NAV in html
