"""The "Your turn (N)" link in every page's menu."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from games.correspondence import turn_count


def your_turn(request) -> dict:
    """Context processor: ``your_turn``, the count of correspondence games waiting on the player,
    looked up (from the cache, mostly) only when a page draws the menu."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"your_turn": 0}
    return {"your_turn": SimpleLazyObject(lambda: turn_count.waiting_count(user.pk))}
