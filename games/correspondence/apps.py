from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.correspondence"
    label = "correspondence"
    verbose_name = "Correspondence games: turn notices and the daily digest"

    def ready(self) -> None:
        from games.correspondence.receivers import on_turn_due
        from games.play.models import Game
        from games.play.signals import turn_due

        # Not guarded: the notice's task is written with the move or not at all.
        turn_due.connect(on_turn_due, sender=Game, weak=False, dispatch_uid="correspondence.turn_due")
