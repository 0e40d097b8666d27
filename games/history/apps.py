from django.apps import AppConfig


class HistoryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.history"
    label = "history"
    verbose_name = "Past games and ratings"

    def ready(self) -> None:
        from games.history.receivers import on_game_finished
        from games.play.signals import game_finished

        game_finished.connect(on_game_finished, dispatch_uid="history.on_game_finished")
