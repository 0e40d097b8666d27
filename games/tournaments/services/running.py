"""The director at work while an event runs: a pause and its end, announcements to every entrant,
and a cut of the cards to break a tie."""

from __future__ import annotations

import logging
import math

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.play import broadcast as play_broadcast
from games.play import services as game_services
from games.play.models import Game
from games.tournaments import pairing
from games.tournaments.models import Entrant, Match, Notice, Tournament
from games.tournaments.services import progress
from games.tournaments.services.common import changed, lock_tournament, post_notice
from games.tournaments.services.errors import NotNow, TournamentError

log = logging.getLogger("games.tournaments")

ANNOUNCEMENT_LENGTH = 200


@transaction.atomic
def tournament_pause(
    *, tournament_id: int, by: AbstractBaseUser | None = None, reason: str = ""
) -> Tournament:
    """Hold the event: no round opens and no playoff starts by itself, and no forfeit is claimed or
    applied, until the director resumes. Games in play go on and count."""
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.RUNNING:
        raise NotNow("Only a running tournament can be paused.")
    if t.paused:
        raise NotNow("The tournament is already paused.")
    t.paused_at = timezone.now()
    t.save(update_fields=["paused_at"])
    post_notice(t, Notice.Kind.PAUSE, "paused", reason=reason.strip(), by=by)
    changed(t)
    return t


@transaction.atomic
def tournament_resume(*, tournament_id: int, by: AbstractBaseUser | None = None) -> Tournament:
    """End the pause: whatever fell due meanwhile happens now, and each match in play gets the time
    the pause lasted added to its forfeit grace."""
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.RUNNING or not t.paused:
        raise NotNow("The tournament is not paused.")
    minutes = max(1, math.ceil((timezone.now() - t.paused_at).total_seconds() / 60))
    Match.objects.filter(tournament=t, status=Match.Status.ACTIVE).update(
        extra_minutes=F("extra_minutes") + minutes
    )
    t.paused_at = None
    t.save(update_fields=["paused_at"])
    post_notice(t, Notice.Kind.PAUSE, "resumed", by=by)
    progress.move_on(t, by=by)
    changed(t)
    return t


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
        game_ids=game_ids, text=f"{t.name}, from the director at {stamp}: {text}", stop_clock=False
    )
    transaction.on_commit(play_broadcast.lobby_changed)
    changed(t)
    log.info("tournament=%s action=announce games=%s", t.pk, len(game_ids))
    return notice


@transaction.atomic
def entrants_record_cut(
    *, tournament_id: int, cards: dict[int, str], by: AbstractBaseUser | None = None
) -> list[Entrant]:
    """Record the cards tied players cut (``entrant id -> "7"``, "K", "10"...): the standings' last
    tie-break. What was waiting for the cut (the playoff, the champion) follows."""
    t = lock_tournament(tournament_id)
    if t.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise NotNow("A cut is recorded for a tournament under way.")
    entrants = {e.pk: e for e in t.entrants.select_related("user").filter(pk__in=list(cards))}
    unknown = [pk for pk in cards if pk not in entrants]
    if unknown:
        raise TournamentError("Those players are not entered in this tournament.")
    recorded = []
    for pk, card in cards.items():
        card = card.strip().upper()
        if card:
            try:
                pairing.card_rank(card)
            except ValueError:
                name = entrants[pk].name
                raise TournamentError(f"{name}: “{card}” is not a card (A, 2 to 10, J, Q or K).") from None
        if entrants[pk].cut_card != card:
            entrants[pk].cut_card = card
            entrants[pk].save(update_fields=["cut_card"])
            recorded.append(entrants[pk])
    if not recorded:
        raise TournamentError("No card changed.")
    cards = [[e.user_id, e.cut_card] for e in recorded]
    post_notice(t, Notice.Kind.INFO, "cut_recorded", {"cards": cards}, by=by)
    if t.status == Tournament.Status.RUNNING:
        progress.move_on(t, by=by)
    changed(t)
    return recorded
