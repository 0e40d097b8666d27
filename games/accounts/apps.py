from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Signing up, logging in, profiles and passwords (Django's auth, in the site's pages)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.accounts"
    label = "accounts"
    verbose_name = "Accounts"
