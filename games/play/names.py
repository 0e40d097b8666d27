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


# The words the narration uses for a person (``games.play.narration``, the boards, the results): a
# player called one of them would read as the narration's own word ("You win" for someone else's
# win, "Computer (easy)" for a person, "entered by the director").
RESERVED_NAMES = frozenset({
    "you", "your", "yours", "yourself", "me", "seat", "player", "opponent", "partner", "director",
    "organiser", "organizer", "everyone", "nobody", "spectator",
})
# Words a name may not begin with, whatever follows: "Computer 2 (easy)" names a computer's seat,
# "Seat 3" and "Player 2" a place at the table.
RESERVED_PREFIXES = ("computer",)
NUMBERED = ("seat", "player")


def reserved_name_reason(username: str) -> str | None:
    """Why ``username`` may not be a player's name, or None if it may.

    >>> reserved_name_reason("You")[:60]
    '“You” is a word the game itself uses for a player (“You win”'
    >>> reserved_name_reason("Younger") is None
    True
    >>> reserved_name_reason("computer_kate")
    'A name that begins with “computer” would read as one of the computer players: choose another name.'
    """
    folded = username.casefold()
    bare = folded.rstrip("0123456789_-.")
    if folded in RESERVED_NAMES or (bare in NUMBERED and bare != folded):
        return (f"“{username}” is a word the game itself uses for a player (“You win”), so others would "
                "misread it: choose another name.")
    for prefix in RESERVED_PREFIXES:
        if folded.startswith(prefix):
            return (f"A name that begins with “{prefix}” would read as one of the computer players: "
                    "choose another name.")
    return None
