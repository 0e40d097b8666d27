"""Named refusals. Every illegal action raises a subclass of ``IllegalAction`` (a ``ValueError``)
with a message fit to show a player, and leaves the state untouched (states are immutable).

Data that cannot be read as an action at all (from a form, or a log) raises ``MalformedAction``,
also a ``ValueError``; a card whose notation is wrong raises ``BadCard``, one kind of it. Their
messages are for developers (they quote the notation), so a site tells the two apart by type."""

from __future__ import annotations


class IllegalAction(ValueError):
    """The action is not allowed in this state."""


class WrongPhase(IllegalAction):
    """The action belongs to another phase of the deal (e.g. playing a card during the discard)."""


class NotYourTurn(IllegalAction):
    """Another seat must act first."""


class CardNotInHand(IllegalAction):
    """The card is not one the seat holds."""


class CountExceeds31(IllegalAction):
    """Playing the card would take the running count past 31."""


class GameOver(WrongPhase):
    """The game has ended; nothing more can be done in it."""


class MalformedAction(ValueError):
    """The data is not an action: an unknown type, a missing or ill-typed field."""


class BadCard(MalformedAction):
    """A card's notation is not rank ``A23456789TJQK`` then suit ``SHDC``."""
