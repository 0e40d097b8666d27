"""A player's table preferences (sound, motion): read for every board page, changed from the board
or the account page."""

from __future__ import annotations

from django.db import transaction
from django.utils.functional import SimpleLazyObject

from games.accounts.models import TablePreferences

FIELDS = ("sound", "motion")


def preferences_of(user) -> TablePreferences:
    """The player's preferences, or the defaults (unsaved) for a player who never changed them."""
    if not getattr(user, "is_authenticated", False):
        return TablePreferences()
    return TablePreferences.objects.filter(user=user).first() or TablePreferences(user=user)


@transaction.atomic
def preferences_set(*, user, **changes: bool) -> TablePreferences:
    """Store the named preferences (others keep their value)."""
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown preferences: {', '.join(sorted(unknown))}")
    prefs, _ = TablePreferences.objects.select_for_update().get_or_create(user=user)
    for name, value in changes.items():
        setattr(prefs, name, bool(value))
    prefs.save(update_fields=list(changes) or None)
    return prefs


def table_preferences(request) -> dict:
    """Context processor: ``table_prefs`` for the pages that draw a table, looked up only by them."""
    return {"table_prefs": SimpleLazyObject(lambda: preferences_of(request.user))}


# What a game against the computer is started with, as the lobby's form names it.
COMPUTER_RULES = ("target", "skunks", "triple_skunk", "peg_out_zone", "manual_counting", "muggins",
                  "pone_cuts", "match_games", "hints", "private")


def computer_defaults(user) -> dict:
    """How the player last started a game against the computer ({} before their first)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    row = (TablePreferences.objects.filter(user=user)
           .values_list("computer_level", "computer_rules").first())
    if row is None or not row[0]:
        return {}
    level, rules = row
    return {"level": level, **{k: v for k, v in (rules or {}).items() if k in COMPUTER_RULES}}


def computer_remember(sender, *, game, user, **kwargs) -> None:
    """Receiver of ``computer_game_created``: keep how the game was started for the next one."""
    rules = {name: getattr(game, name) for name in COMPUTER_RULES}
    prefs, _ = TablePreferences.objects.select_for_update().get_or_create(user=user)
    prefs.computer_level, prefs.computer_rules = game.computer_level, rules
    prefs.save(update_fields=["computer_level", "computer_rules"])
