"""How a player is named to everyone else, and the name a deleted account goes by.

A deleted account keeps its row (seats, history rows, ratings and tournament entries point at it)
under a handle that no sign-up can choose: ``~`` is outside the characters Django's username
validator accepts, so a living player can never be taken for a deleted one. Whether a name is a
deleted player's is read from the username alone, because a move's hot path loads nothing else of
a seat's player (``GameQuerySet.for_play``).

>>> public_name("alice")
'alice'
>>> public_name(deleted_handle())
'a deleted player'
"""

from __future__ import annotations

import secrets

DELETED_NAME = "a deleted player"
DELETED_PREFIX = "deleted~"


def deleted_handle() -> str:
    """A new unique-enough username for a deleted account (the column is unique: a clash fails loudly)."""
    return f"{DELETED_PREFIX}{secrets.token_hex(8)}"


def is_deleted(username: str | None) -> bool:
    return bool(username) and username.startswith(DELETED_PREFIX)


def public_name(username: str | None) -> str:
    """The name shown for ``username``: itself, or "a deleted player" for a deleted account."""
    if not username:
        return ""
    return DELETED_NAME if is_deleted(username) else username
