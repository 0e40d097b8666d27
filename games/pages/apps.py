from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The site's own pages: home, how to play, error pages and the health check."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.pages"
    label = "pages"
    verbose_name = "Site pages"
