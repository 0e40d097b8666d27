from django.apps import AppConfig


class PracticeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.practice"
    label = "practice"
    verbose_name = "Practice: counting and lessons"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from games.play.registry import register_coach
        from games.practice.lesson.coach import coach
        from games.practice.trainer import claim_on_login

        # Sign-up logs the new player in: one receiver keeps a visitor's record on both paths.
        user_logged_in.connect(claim_on_login, dispatch_uid="practice.claim_on_login")
        register_coach(coach)
