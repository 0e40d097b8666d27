from django.apps import AppConfig


class HistoryConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.history"
    label = "history"
    verbose_name = "Past games and ratings"

    def ready(self) -> None:
        from django.urls import reverse

        from games.history.ratings import rating_for
        from games.history.receivers import on_game_finished, on_result_entered
        from games.play.registry import register_page, register_rating
        from games.play.signals import game_finished, result_entered

        game_finished.connect(on_game_finished, dispatch_uid="history.on_game_finished")
        result_entered.connect(on_result_entered, dispatch_uid="history.on_result_entered")
        register_rating(rating_for)
        register_page("record", lambda game_id: reverse("game_record", args=[game_id]))
        register_page("fair_deals", lambda: reverse("fair_deals"))
