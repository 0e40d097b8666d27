"""The one path converter for object ids, HTTP and websocket routes alike: ``<id:game_id>``; and one
for a place within a game (a deal's number, counted from 0): ``<index:deal_no>``.

An id is what a ``BigAutoField`` can hold and what the site itself writes: ASCII decimal digits,
no sign, no leading zero, from 1 to 2**63 - 1 (9223372036854775807). Anything else (``0``, ``-1``,
``007``, ``+7``, ``٣``, ``2**63``, ``10**30``) matches no route: a page answers 404 and a socket's
handshake is refused (``cribsite.routing``), on SQLite and PostgreSQL alike.

Django's ``int`` converter takes any run of digits, and a value past the 64-bit range then fails in
the database driver (``OverflowError`` on SQLite) as a 500. Leading zeros are refused so that each
object has one address. Importing this module registers the converter, once; every ``urls.py`` and
``routing.py`` that uses it imports it first.
"""

from __future__ import annotations

import re

from django.urls import register_converter

MAX_ID = 2**63 - 1  # the largest value of a signed 64-bit column (PostgreSQL bigint, SQLite INTEGER)
# At most 19 digits: MAX_ID has 19, so only the last check below needs the number's value.
ID_PATTERN = "[1-9][0-9]{0,18}"
_ID = re.compile(ID_PATTERN)


def parse_id(text: str) -> int:
    """The id ``text`` spells, or ValueError when it is not one (see the module's rule)."""
    if not isinstance(text, str) or _ID.fullmatch(text) is None:
        raise ValueError(f"not an id: {text!r}")
    value = int(text)
    if value > MAX_ID:
        raise ValueError(f"id out of range: {text!r}")
    return value


class IdConverter:
    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        # ValueError here is how a converter says "no match": Django and channels try the next route.
        return parse_id(value)

    def to_url(self, value: int | str) -> str:
        # ``reverse()`` with a value that is no id finds no URL (NoReverseMatch), as for a bad match.
        if isinstance(value, bool):
            raise ValueError(f"not an id: {value!r}")
        text = str(value)
        parse_id(text)
        return text


register_converter(IdConverter, "id")


class IndexConverter:
    """A small count from 0 (a game of a match, a deal of a game): at most four digits, so no value
    reaches a database's range, and one spelling each (no leading zero)."""

    regex = "0|[1-9][0-9]{0,3}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        text = str(value)
        if isinstance(value, bool) or re.fullmatch(self.regex, text) is None:
            raise ValueError(f"not an index: {value!r}")
        return text


register_converter(IndexConverter, "index")
