from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The site's own pages: home, how to play, error pages and the health check."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.pages"
    label = "pages"
    verbose_name = "Site pages"

    def ready(self) -> None:
        from django.urls import reverse

        from games.play.registry import register_page

        register_page("home", lambda: reverse("home"))
        register_page("watch", lambda: reverse("watch"))
        register_page("house_rules", lambda: reverse("how_to_play") + "#house-rules")
        register_page("hand_counter", lambda: reverse("how_to_play") + "#counter")
