from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.play.hooks import register_organiser
        from games.play.signals import deal_started, game_finished
        from games.tournaments.results import lookup
        from games.tournaments.services import on_deal_started, on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="tournaments.on_game_finished")
        deal_started.connect(on_deal_started, dispatch_uid="tournaments.on_deal_started")
        register_organiser(lookup)
