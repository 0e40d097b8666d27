"""The director's steps, each a button on the desk (``desk_steps`` says what each will do): start,
advance, start the playoff, pause and resume, cancel. What follows from each is ``progress``'s."""

from __future__ import annotations

import logging
import math

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.play import services as game_services
from games.play.models import Game
from games.tournaments import selectors
from games.tournaments.models import Match, Notice, Tournament
from games.tournaments.services import progress, qualifying_draw
from games.tournaments.services.common import changed, lock_tournament, post_notice
from games.tournaments.services.errors import NotNow

log = logging.getLogger("games.tournaments")

@transaction.atomic
def tournament_start(*, tournament_id: int, by: AbstractBaseUser | None = None) -> Tournament:
    """Close the entry list, fix the seeds, draw the schedule or bracket and start the first games."""
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Only an upcoming tournament can be started.")
    seeded = selectors.seeding_order(t)
    if len(seeded) < 2:
        raise NotNow("A tournament needs at least two players.")
    if t.format == Tournament.Format.ACC:
        refusal = selectors.too_many_games(len(seeded), t.qualifying_games)
        if refusal:
            raise NotNow(refusal)
    for i, e in enumerate(seeded, start=1):
        if e.seed != i:
            e.seed = i
            e.save(update_fields=["seed"])
    t.status = Tournament.Status.RUNNING
    t.started_at = timezone.now()
    if t.format == Tournament.Format.KNOCKOUT:
        progress.draw_bracket(t, seeded, t.match_games)
    elif t.format == Tournament.Format.ACC:
        qualifying_draw.draw_at_start(t, seeded)
    else:
        progress.draw_round_robin(t, seeded)
    t.save()
    post_notice(t, Notice.Kind.START, "started", {"players": len(seeded)}, by=by)
    progress.move_on(t, force=True, by=by)  # the first round starts now, even when rounds wait for the admin
    changed(t)
    log.info("tournament=%s action=start players=%s", t.pk, len(seeded))
    return t


@transaction.atomic
def tournament_advance(*, tournament_id: int, by: AbstractBaseUser | None = None) -> str:
    """The organiser moves on: start the next round's games now (round robin: matches still in play
    go on and still count); single elimination: start every match whose players are known."""
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.RUNNING:
        raise NotNow("The tournament is not running.")
    before = (t.stage, t.current_round, selectors.started_count(t))
    progress.move_on(t, force=True, by=by)
    after = (t.stage, t.current_round, selectors.started_count(t))
    if before == after and t.status == Tournament.Status.RUNNING:
        why = "Nothing to advance: " + selectors.waiting_text(t) + "."
        if t.stage == Tournament.Stage.QUALIFYING:
            why += " Each qualifying round is paired from the results of the one before."
        raise NotNow(why)
    changed(t)
    return selectors.stage_name(t)


@transaction.atomic
def tournament_start_playoff(*, tournament_id: int, by: AbstractBaseUser | None = None) -> str:
    """The director ends the qualifying after the rounds played so far (every match of them decided)
    and seeds the playoff from the standings; rounds drawn ahead and not begun are void."""
    t = lock_tournament(tournament_id)
    stage = t.rounds_stage
    if t.status != Tournament.Status.RUNNING or not t.has_qualifying or t.stage != stage:
        raise NotNow("Only a running qualifying can go on to the playoff.")
    if t.current_round == 0:
        raise NotNow("No qualifying round has been played yet.")
    if selectors.undecided(t).filter(stage=stage, round_no__lte=t.current_round).exists():
        raise NotNow("The qualifying is not over: " + selectors.waiting_text(t) + ".")
    later = Match.objects.filter(tournament=t, stage=stage, round_no__gt=t.current_round)
    total = t.qualifying_games if t.format == Tournament.Format.ACC else selectors.last_drawn(t, stage)
    if t.current_round < total:
        later.update(status=Match.Status.VOID, winner=None,
                     note=f"Qualifying ended after round {t.current_round} by the director.")
        if t.format == Tournament.Format.ACC:
            t.qualifying_games = t.current_round
            t.save(update_fields=["qualifying_games"])
        ended = {"round": t.current_round, "total": total}
        post_notice(t, Notice.Kind.ROUND, "qualifying_ended", ended, by=by)
    progress.move_on(t, force=True, by=by)
    changed(t)
    return selectors.stage_name(t)


@transaction.atomic
def tournament_cancel(
    *, tournament_id: int, by: AbstractBaseUser | None = None, reason: str = ""
) -> Tournament:
    t = lock_tournament(tournament_id)
    if t.status not in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING):
        raise NotNow("The tournament is already over.")
    t.status = Tournament.Status.CANCELLED
    t.finished_at = timezone.now()
    t.save()
    # Games in play go on for their players but no longer count, so no clock can forfeit them
    # either; their boards are redrawn to say so.
    undecided = selectors.undecided(t)
    open_games = list(undecided.filter(game__status=Game.Status.ACTIVE).values_list("game_id", flat=True))
    undecided.update(status=Match.Status.VOID)
    game_services.organiser_notice(
        game_ids=open_games, text=f"The tournament {t.name} was cancelled: this game no longer counts.")
    post_notice(t, Notice.Kind.CANCEL, "cancelled", reason=reason, by=by)
    changed(t)
    return t


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
