from django.apps import AppConfig


class WebpushConfig(AppConfig):
    """The site as an installable app (manifest, service worker, offline page) and browser
    notifications through Web Push."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.webpush"
    label = "webpush"
    verbose_name = "Browser notifications"
