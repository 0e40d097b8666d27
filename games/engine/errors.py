"""Named refusals. Every illegal action raises a subclass of ``IllegalAction`` (a ``ValueError``)
with a message fit to show a player, and leaves the state untouched (states are immutable)."""

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
