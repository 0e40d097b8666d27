from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project itself: its system checks (``check --deploy``)."""

    name = "cribsite"
    verbose_name = "Cribbage Hall site"

    def ready(self) -> None:
        from cribsite import checks  # noqa: F401  registers the checks

