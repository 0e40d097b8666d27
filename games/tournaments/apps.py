from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.play.hooks import register_organiser, register_player_notices
        from games.play.signals import deal_started, game_finished, player_arrived
        from games.tournaments.announcements import for_player
        from games.tournaments.results import lookup
        from games.tournaments.services import on_deal_started, on_game_finished, on_player_arrived

        game_finished.connect(on_game_finished, dispatch_uid="tournaments.on_game_finished")
        deal_started.connect(on_deal_started, dispatch_uid="tournaments.on_deal_started")
        player_arrived.connect(on_player_arrived, dispatch_uid="tournaments.on_player_arrived")
        register_organiser(lookup)
        register_player_notices(for_player)
