"""The director's announcements: on the tournament page, in each entrant's lobby, and on the board of
every game of the event in play."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.play import broadcast as play_broadcast
from games.play import services as game_services
from games.play.models import Game
from games.tournaments.models import Match, Notice, Tournament
from games.tournaments.services.common import changed, lock_tournament, post_notice
from games.tournaments.services.errors import NotNow, TournamentError

log = logging.getLogger("games.tournaments")

ANNOUNCEMENT_LENGTH = 200


@transaction.atomic
def tournament_announce(*, tournament_id: int, text: str, by: AbstractBaseUser | None = None) -> Notice:
    """A notice from the director: on the tournament page, in each entrant's lobby, and on the board
    of every game of the event in play, pushed to all of them."""
    text = " ".join(text.split())
    if not text:
        raise TournamentError("Write the announcement first.")
    if len(text) > ANNOUNCEMENT_LENGTH:
        raise TournamentError(f"Keep an announcement to {ANNOUNCEMENT_LENGTH} characters; this one has "
                              f"{len(text)}.")
    t = lock_tournament(tournament_id)
    if t.status == Tournament.Status.CANCELLED:
        raise NotNow("The tournament was cancelled.")
    notice = post_notice(t, Notice.Kind.ANNOUNCEMENT, "", text=text, by=by)
    game_ids = list(
        Match.objects.filter(tournament=t, status=Match.Status.ACTIVE, game__status=Game.Status.ACTIVE)
        .values_list("game_id", flat=True)
    )
    stamp = timezone.localtime(notice.created_at).strftime("%H:%M")
    game_services.organiser_notice(
        game_ids=game_ids, text=f"{t.name}, from the director at {stamp}: {text}", stop_turn_timer=False
    )
    transaction.on_commit(play_broadcast.lobby_changed)
    changed(t)
    log.info("tournament=%s action=announce games=%s", t.pk, len(game_ids))
    return notice
