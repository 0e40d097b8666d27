"""Configuration a host cannot miss: ``check --deploy`` warns when production has no ``SITE_URL`` or
no mail server (tests/correspondence/test_notice_delivery.py: what happens to the notices then)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from cribsite.checks import email_backend_check, site_url_check
from cribsite.origin import FALLBACK, runserver_origin, site_url
from tests.ops.test_production import manage

NO_MAIL_SERVER = "cribsite.mail.NoMailServerBackend"


def ids(messages) -> list[str]:
    return [m.id for m in messages]


@pytest.mark.parametrize(("url", "expected"), [
    ("", ["cribsite.W001"]),
    ("http://localhost:8000", ["cribsite.W002"]),
    ("cribbage.example.org", ["cribsite.W002"]),  # no scheme: no mail program would open it
    ("https://cribbage.example.org", []),
])
def test_the_deploy_check_of_site_url(url: str, expected: list[str]) -> None:
    with override_settings(SITE_URL=url):
        assert ids(site_url_check(None)) == expected


@pytest.mark.parametrize(("backend", "expected"), [
    (NO_MAIL_SERVER, ["cribsite.W003"]),
    ("django.core.mail.backends.console.EmailBackend", ["cribsite.W003"]),
    ("django.core.mail.backends.smtp.EmailBackend", []),
])
def test_the_deploy_check_of_the_mail_server(backend: str, expected: list[str]) -> None:
    with override_settings(EMAIL_BACKEND=backend):
        assert ids(email_backend_check(None)) == expected


def test_check_deploy_names_both_when_production_leaves_them_unset() -> None:
    result = manage("check", "--deploy", SITE_URL="", EMAIL_HOST="")
    out = result.stdout + result.stderr
    assert "cribsite.W001" in out and "SITE_URL" in out
    assert "cribsite.W003" in out and "EMAIL_HOST" in out
    script = "from django.conf import settings; print(settings.EMAIL_BACKEND)"
    shown = manage("shell", "-c", script, EMAIL_HOST="")
    assert shown.stdout.strip().splitlines()[-1] == NO_MAIL_SERVER  # not the console: no email in the log


def test_a_site_url_set_is_the_one_address_and_none_falls_back_to_localhost() -> None:
    with override_settings(SITE_URL="https://cribbage.example.org"):
        assert site_url() == "https://cribbage.example.org"
    with override_settings(SITE_URL=""):
        assert site_url() == FALLBACK  # no request, and pytest is no runserver


@pytest.mark.parametrize(("argv", "origin"), [
    (["manage.py", "runserver", "0.0.0.0:8001"], "http://localhost:8001"),
    (["manage.py", "runserver", "--noreload", "192.168.1.5:9000"], "http://192.168.1.5:9000"),
    (["manage.py", "runserver", "8002"], "http://127.0.0.1:8002"),
    (["manage.py", "runserver"], "http://127.0.0.1:8000"),
    (["manage.py", "correspondence_digest"], ""),
])
def test_in_development_links_use_the_address_runserver_serves(argv: list[str], origin: str) -> None:
    assert runserver_origin(argv) == origin
