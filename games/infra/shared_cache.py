"""Reads and writes of the shared cache that the site can do without: what is kept there (a list of
games drawn once for every reader, a spectator's board) is only saved work. With Redis away a page
draws its own copy instead of failing, and the outage is logged once (``outages.cache``)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from games.infra import outages


def kept(key: str, doing: str) -> Any | None:
    """What is kept under ``key``; None when nothing is, or when the cache cannot be reached."""
    try:
        value = cache.get(key)
    except Exception as exc:  # noqa: BLE001 - the cache is away: the caller draws its own copy
        outages.cache.failed(doing, exc)
        return None
    outages.cache.delivered()
    return value


def keep(key: str, value: Any, seconds: float | None, doing: str, *, only_if_new: bool = False) -> None:
    """Keeps ``value`` for ``seconds`` (None: until replaced); with the cache away, nothing is kept."""
    try:
        (cache.add if only_if_new else cache.set)(key, value, seconds)
    except Exception as exc:  # noqa: BLE001 - the cache is away: the next reader draws again
        outages.cache.failed(doing, exc)
        return
    outages.cache.delivered()
