"""Refusals of the tournament services: the site's one kind of service error, in a tournament's words."""

from __future__ import annotations

from games.play.services.errors import ServiceError


class TournamentError(ServiceError):
    """A refusal with a message for the player or the organiser."""


class NotAllowed(TournamentError):
    status = 403


class NotNow(TournamentError):
    status = 409
