"""Quick messages between players: a fixed list (no free text to moderate), rate limited."""

from __future__ import annotations

from django.core.cache import cache

MESSAGES = {
    "hello": "Hello!",
    "good_luck": "Good luck",
    "nice_hand": "Nice hand",
    "nice_play": "Nice play",
    "oops": "Oops",
    "thanks": "Thanks",
    "good_game": "Good game",
}
# At most BURST messages in any WINDOW seconds, per player per game.
BURST = 3
WINDOW = 20


def allow(game_id: int, user_id: int) -> bool:
    """Count one message against the player's allowance; False when it is used up."""
    key = f"chat:{game_id}:{user_id}"
    if cache.add(key, 1, timeout=WINDOW):
        return True
    try:
        return cache.incr(key) <= BURST
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=WINDOW)
        return True
