"""The director's announcements as a player's lobby shows them (``games.play.hooks.player_notices``):
the latest few of the events the player is entered in and that are not over, from the last hours."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.play.hooks import PlayerNotice
from games.tournaments.models import Notice, Tournament

RECENT = timedelta(hours=12)
SHOWN = 3


def for_player(user) -> list[PlayerNotice]:
    if not getattr(user, "is_authenticated", False):
        return []
    notices = (
        Notice.objects.filter(
            kind=Notice.Kind.ANNOUNCEMENT,
            created_at__gte=timezone.now() - RECENT,
            tournament__status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING],
            tournament__entrants__user=user,
            tournament__entrants__withdrawn=False,
        )
        .select_related("tournament")
        .order_by("-created_at", "-pk")[:SHOWN]
    )
    return [
        PlayerNotice(n.text, n.tournament.name, n.tournament.get_absolute_url(), n.created_at)
        for n in notices
    ]
