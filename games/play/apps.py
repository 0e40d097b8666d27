from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Games, seats and moves: the service layer, the board and the live pushes."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.play"
    label = "play"
    verbose_name = "Play"

    def ready(self) -> None:
        from django.core import checks

        from games.play.models import Game, check_for_play
        from games.play.signals import computer_due
        from games.play.tasks import on_computer_due

        checks.register(check_for_play, checks.Tags.models)
        # Not guarded: the computer's task is written with the move or not at all.
        computer_due.connect(on_computer_due, sender=Game, weak=False, dispatch_uid="play.computer_due")
