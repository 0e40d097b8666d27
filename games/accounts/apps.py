from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Signing up, logging in, profiles and passwords (Django's auth, in the site's pages)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.urls import reverse

        from games.accounts import throttle  # noqa: F401 - counts failed log-ins from the first request
        from games.accounts.preferences import computer_defaults, computer_remember
        from games.play.registry import register_computer_defaults, register_page
        from games.play.signals import computer_game_created, guarded

        register_page("profile", lambda username: reverse("profile", args=[username]))
        register_page("table_preferences", lambda: reverse("table_preferences"))
        register_computer_defaults(computer_defaults)
        # Remembering is a convenience: a fault in it must never refuse the game.
        computer_game_created.connect(guarded(computer_remember), weak=False,
                                      dispatch_uid="accounts.computer_remember")
