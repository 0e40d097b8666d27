"""The game's own URLs that a board names (act, say, abort, the clock, presence, a claim), remembered:
every board names several and ``reverse`` works each out afresh."""

from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, reverse


@lru_cache(maxsize=4096)
def _game_url(prefix: str, name: str, game_id: int) -> str:
    return reverse(name, args=[game_id])


def game_url(name: str, game_id: int) -> str:
    """``reverse(name, args=[game_id])``, keyed by the script prefix as ``reverse`` is."""
    return _game_url(get_script_prefix(), name, game_id)
