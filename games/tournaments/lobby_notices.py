"""What a player's lobby shows them of their tournaments (``games.play.registry.player_notices``): a
match of theirs that is ready to play, and the director's announcements (the latest few of the
events the player is entered in and that are not over, from the last hours)."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from games.play.registry import PlayerNotice
from games.tournaments import notice_words
from games.tournaments.models import Entrant, Match, Notice, Tournament

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
    said = [
        PlayerNotice(n.words, n.notice.tournament.name, n.notice.tournament.get_absolute_url(), n.created_at)
        for n in notice_words.in_words(notices)
    ]
    return ready_matches(user) + said


def ready_matches(user) -> list[PlayerNotice]:
    """The player's matches whose games are made and whose board they have not opened yet: "Your
    match is ready". Being served the board is what makes it go (``listeners.on_board_served``)."""
    matches = (
        Match.objects.filter(
            (Q(entrant1__user=user) & ~Q(board_served_game1=F("game_id")))
            | (Q(entrant2__user=user) & ~Q(board_served_game2=F("game_id"))),
            status=Match.Status.ACTIVE,
            game__isnull=False,
            tournament__status=Tournament.Status.RUNNING,
        )
        .select_related("tournament", "entrant1__user", "entrant2__user")
        .order_by("-started_at", "-pk")
    )
    notices = []
    for m in matches:
        opponent = m.entrant2 if m.entrant1.user_id == user.pk else m.entrant1
        where = m.tournament.round_name(m.stage, m.round_no)
        notices.append(PlayerNotice(
            f"Your match is ready: {where}, against {opponent.name}.", m.tournament.name,
            m.tournament.get_absolute_url(), m.started_at or timezone.now(),
            action="Open the board", action_url=reverse("game", args=[m.game_id]), key=f"match-{m.game_id}",
        ))
    return notices


def in_running_event(user) -> bool:
    """Whether the player is entered in an event in progress, and so may be told at any moment that
    a match of theirs is ready: one query."""
    return Entrant.objects.filter(user=user, withdrawn=False,
                                  tournament__status=Tournament.Status.RUNNING).exists()
