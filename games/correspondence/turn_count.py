"""The count of correspondence games waiting on a player, "Your turn (N)" on every page.

The count is cached per player and forgotten when a move changes whose turn it is in one of their
games (``services.keeping``). The cache is a shortcut: when it cannot be reached the count comes
from the database.
"""

from __future__ import annotations

import logging

from django.core.cache import cache

from games.correspondence.models import SeatClock
from games.play import broadcast
from games.play.models import Game

COUNT_KEY = "correspondence:waiting:{}"
COUNT_SECONDS = 300

log = logging.getLogger(__name__)


def waiting_count(user_id: int) -> int:
    """How many correspondence games wait on this player (cached; one query when not)."""
    key = COUNT_KEY.format(user_id)
    try:
        count = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down: count from the database
        log.warning("the cache could not be read for the turn count", exc_info=True)
        count = None
    if count is None:
        count = SeatClock.objects.filter(user_id=user_id, deadline_at__isnull=False,
                                         game__status=Game.Status.ACTIVE).count()
        try:
            cache.set(key, count, COUNT_SECONDS)
        except Exception:  # noqa: BLE001
            log.warning("the cache could not keep the turn count", exc_info=True)
    return count


def forget_counts(user_ids) -> None:
    """After a commit that may change who waits on whom: the counts are counted again, and the
    players' open pages are told to draw theirs."""
    user_ids = list(user_ids)
    try:
        cache.delete_many([COUNT_KEY.format(pk) for pk in user_ids])
    except Exception:  # noqa: BLE001 - a count kept meanwhile is at most COUNT_SECONDS old
        log.warning("the cache could not forget the turn counts", exc_info=True)
    broadcast.player_turns(user_ids)
