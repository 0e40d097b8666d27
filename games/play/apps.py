from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Games, seats and moves: the service layer, the board and the live pushes."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.play"
    label = "play"
    verbose_name = "Play"

    def ready(self) -> None:
        from django.core import checks

        from games.play.models import check_for_play

        checks.register(check_for_play, checks.Tags.models)
