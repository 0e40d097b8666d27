"""Configuration a production site cannot do without, checked by ``manage.py check --deploy``: the
address its emails link to, and a mail server to send them."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Tags, Warning, register

# Backends that deliver nothing to anybody: fine in development, a silent loss in production.
UNDELIVERED = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "cribsite.mail.NoMailServerBackend",
}
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


@register(Tags.security, deploy=True)
def site_url_check(app_configs, **kwargs) -> list[Warning]:
    url = settings.SITE_URL
    if not url:
        return [Warning(
            "SITE_URL is not set: links in emails (turn notices, the daily summary, unsubscribe) fall "
            "back to the address of whatever request led to them, or to http://localhost:8000 when "
            "none did (the daily summary).",
            hint="Set SITE_URL to the site's public address, e.g. https://cribbage.example.org "
                 "(docs/operations.md, Production).",
            id="cribsite.W001",
        )]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.hostname in LOCAL_HOSTS:
        return [Warning(
            f"SITE_URL is {url!r}: links in emails would not reach the site from a player's mailbox.",
            hint="Set SITE_URL to the site's public address, e.g. https://cribbage.example.org.",
            id="cribsite.W002",
        )]
    return []


@register(Tags.security, deploy=True)
def email_backend_check(app_configs, **kwargs) -> list[Warning]:
    if settings.EMAIL_BACKEND not in UNDELIVERED:
        return []
    return [Warning(
        "No mail server is configured (EMAIL_HOST is unset): turn notices, the daily summary and "
        "password-reset mail are not sent (each is logged as not sent).",
        hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS as "
             "the server needs) and DEFAULT_FROM_EMAIL (docs/operations.md, Production).",
        id="cribsite.W003",
    )]
