"""Refusals of the service layer: each a message fit for the player and the HTTP status to answer with."""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal with a message fit for the player and the HTTP status to answer with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAPlayer(ServiceError):
    status = 403


class StaleVersion(ServiceError):
    status = 409


class AlreadyMade(ServiceError):
    """The move is in the log already, made by this seat since the board it was sent from: a page
    sending again a move whose answer it never got. Nothing is applied twice; the answer is the board."""

    status = 200


class IllegalMove(ServiceError):
    status = 422


class NotAvailable(ServiceError):
    status = 409


class RateLimited(ServiceError):
    status = 429


class RematchWaiting(NotAvailable):
    """The player's own rematch offer is still waiting: pressing Rematch again adds nothing."""
