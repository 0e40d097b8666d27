from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.puzzles"
    label = "puzzles"
    verbose_name = "Daily discard puzzles"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from games.puzzles.browser import claim_on_login

        # Sign-up logs the new player in, so one receiver keeps a visitor's answers on both paths.
        user_logged_in.connect(claim_on_login, dispatch_uid="puzzles.claim_on_login")
