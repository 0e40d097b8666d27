from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    """Games at your own pace: the clocks (deadline, time bank, vacation), their words, the lists,
    the turn notices and the daily digest. Play knows only that a game has days per move: it tells
    of those games with signals and draws their clocks through the hooks registered here."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.correspondence"
    label = "correspondence"
    verbose_name = "Games at your own pace: clocks, turn notices and the daily digest"

    def ready(self) -> None:
        from games.correspondence import board, receivers, turn_count
        from games.play import registry
        from games.play.models import Game
        from games.play.signals import correspondence_moved, correspondence_started, game_aborted

        # Not guarded: the clocks and the notices' tasks are written with the move or not at all.
        correspondence_started.connect(receivers.on_started, sender=Game, weak=False,
                                       dispatch_uid="correspondence.started")
        correspondence_moved.connect(receivers.on_moved, sender=Game, weak=False,
                                     dispatch_uid="correspondence.moved")
        game_aborted.connect(receivers.on_aborted, sender=Game, weak=False,
                             dispatch_uid="correspondence.aborted")
        registry.register_correspondence(panel=board.panel, waiting_count=turn_count.waiting_count,
                                         next_waiting=board.next_waiting)
