"""What the desk's forms do, each action once: the service it calls and the words that report it.
The desk's pages post here, and the admin's changelist actions are shortcuts to the same functions,
so a step taken from either is the same step, logged and said the same way. A refusal is the
service's ``TournamentError``, left to the caller to show."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from games.tournaments import services
from games.tournaments.models import Entrant, Match, Tournament


def _seed_by_rating(*, tournament_id: int, by: AbstractBaseUser | None = None) -> str:
    used = services.seed_entrants(tournament_id=tournament_id, by=by, by_rating=True)
    return "by rating" if used else "in registration order (no ratings on this site yet)"


def _seed_in_order(*, tournament_id: int, by: AbstractBaseUser | None = None) -> str:
    services.seed_entrants(tournament_id=tournament_id, by=by, by_rating=False)
    return "in registration order"


# A desk step's key: the service it calls, the word that reports it, whether it takes a reason.
STEPS = {
    "seed_rating": (_seed_by_rating, "Seeded", False),
    "seed_order": (_seed_in_order, "Seeded", False),
    "start": (services.tournament_start, "Started", False),
    "advance": (services.tournament_advance, "Moved on", False),
    "playoff": (services.tournament_start_playoff, "Playoff started", False),
    "pause": (services.tournament_pause, "Paused", True),
    "resume": (services.tournament_resume, "Resumed", False),
    "cancel": (services.tournament_cancel, "Cancelled", True),
}


def take_step(t: Tournament, key: str, *, by: AbstractBaseUser | None, reason: str = "") -> str:
    """Take the desk's step ``key`` for ``t``; the line that reports it."""
    func, label, with_reason = STEPS[key]
    reason = reason.strip()
    outcome = func(tournament_id=t.pk, by=by, **({"reason": reason} if with_reason else {}))
    detail = f": {outcome}" if isinstance(outcome, str) else ""
    return f"{label}{detail}." + (f" Reason: {reason}" if reason else "")


def withdraw(entrant: Entrant, *, by: AbstractBaseUser | None, reason: str = "") -> str:
    """Take a player out: off the entry list before the start, withdrawn after it."""
    if entrant.tournament.status == Tournament.Status.UPCOMING:
        services.entrant_remove(entrant_id=entrant.pk, by=by)
        return f"Removed {entrant.name} from the entry list."
    services.entrant_withdraw(entrant_id=entrant.pk, by=by, reason=reason)
    return f"Withdrew {entrant.name}." + (f" Reason: {reason}" if reason else "")


def extend(match: Match, *, minutes: int, by: AbstractBaseUser | None) -> str:
    services.match_extend(match_id=match.pk, minutes=minutes, by=by)
    return f"{match.label}: forfeit time extended by {minutes} minutes."
