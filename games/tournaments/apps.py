from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.play.registry import register_news_expected, register_organiser, register_player_notices
        from games.play.signals import board_served, deal_started, game_finished, guarded, player_arrived
        from games.tournaments.lobby_notices import for_player, in_running_event
        from games.tournaments.organised_games import lookup
        from games.tournaments.services import (
            on_board_served,
            on_deal_started,
            on_game_finished,
            on_player_arrived,
        )

        # Guarded: a fault in pairing or scoring is logged and undone, and the move that finished
        # the game still stands (its director can set the result in the admin).
        for signal, receiver in (
            (game_finished, on_game_finished),
            (deal_started, on_deal_started),
            (player_arrived, on_player_arrived),
            (board_served, on_board_served),
        ):
            signal.connect(guarded(receiver), weak=False, dispatch_uid=f"tournaments.{receiver.__name__}")
        register_organiser(lookup)
        register_player_notices(for_player)
        register_news_expected(in_running_event)
