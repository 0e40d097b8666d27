"""Running an event: starting it, drawing and opening rounds, carrying winners on, ending it."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.play import services as game_services
from games.play.models import Game
from games.tournaments import pairing
from games.tournaments.broadcast import lobbies_changed_on_commit, players_told_on_commit
from games.tournaments.models import Entrant, Match, Notice, Tournament
from games.tournaments.services import outcomes, qualifying
from games.tournaments.services.common import (
    _changed,
    _describe,
    _lock,
    _notice,
    _notice_once,
    _started_count,
    _undecided,
    _waiting_text,
    seeding_order,
    standings,
)
from games.tournaments.services.errors import NotNow

log = logging.getLogger("games.tournaments")

@transaction.atomic
def tournament_start(*, tournament_id: int, by: AbstractBaseUser | None = None) -> Tournament:
    """Close the entry list, fix the seeds, draw the schedule or bracket and start the first games."""
    t = _lock(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Only an upcoming tournament can be started.")
    seeded = seeding_order(t)
    if len(seeded) < 2:
        raise NotNow("A tournament needs at least two players.")
    if t.format == Tournament.Format.ACC:
        refusal = qualifying.too_many_games(len(seeded), t.qualifying_games)
        if refusal:
            raise NotNow(refusal)
    for i, e in enumerate(seeded, start=1):
        if e.seed != i:
            e.seed = i
            e.save(update_fields=["seed"])
    t.status = Tournament.Status.RUNNING
    t.started_at = timezone.now()
    if t.format == Tournament.Format.KNOCKOUT:
        _draw_bracket(t, seeded, t.match_games)
    elif t.format == Tournament.Format.ACC:
        qualifying.draw_at_start(t, seeded)
    else:
        _draw_round_robin(t, seeded)
    t.save()
    _notice(t, Notice.Kind.START, f"The tournament has started with {len(seeded)} players.", by=by)
    _progress(t, force=True, by=by)  # the first round starts now, even when rounds wait for the admin
    _changed(t)
    log.info("tournament=%s action=start players=%s", t.pk, len(seeded))
    return t


@transaction.atomic
def tournament_advance(*, tournament_id: int, by: AbstractBaseUser | None = None) -> str:
    """The organiser moves on: start the next round's games now (round robin: matches still in play
    go on and still count); single elimination: start every match whose players are known."""
    t = _lock(tournament_id)
    if t.status != Tournament.Status.RUNNING:
        raise NotNow("The tournament is not running.")
    before = (t.stage, t.current_round, _started_count(t))
    _progress(t, force=True, by=by)
    after = (t.stage, t.current_round, _started_count(t))
    if before == after and t.status == Tournament.Status.RUNNING:
        why = "Nothing to advance: " + _waiting_text(t) + "."
        if t.stage == Tournament.Stage.QUALIFYING:
            why += " Each qualifying round is paired from the results of the one before."
        raise NotNow(why)
    _changed(t)
    return _describe(t)


@transaction.atomic
def tournament_start_playoff(*, tournament_id: int, by: AbstractBaseUser | None = None) -> str:
    """The director ends the qualifying after the rounds played so far (every match of them decided)
    and seeds the playoff from the standings; rounds drawn ahead and not begun are void."""
    t = _lock(tournament_id)
    stage = t.rounds_stage
    if t.status != Tournament.Status.RUNNING or not t.has_qualifying or t.stage != stage:
        raise NotNow("Only a running qualifying can go on to the playoff.")
    if t.current_round == 0:
        raise NotNow("No qualifying round has been played yet.")
    if _undecided(t).filter(stage=stage, round_no__lte=t.current_round).exists():
        raise NotNow("The qualifying is not over: " + _waiting_text(t) + ".")
    later = Match.objects.filter(tournament=t, stage=stage, round_no__gt=t.current_round)
    total = t.qualifying_games if t.format == Tournament.Format.ACC else _last_drawn(t, stage)
    if t.current_round < total:
        later.update(status=Match.Status.VOID, winner=None,
                     note=f"Qualifying ended after round {t.current_round} by the director.")
        if t.format == Tournament.Format.ACC:
            t.qualifying_games = t.current_round
            t.save(update_fields=["qualifying_games"])
        _notice(t, Notice.Kind.ROUND, f"The director ended the qualifying after round {t.current_round} "
                f"of {total}.", by=by)
    _progress(t, force=True, by=by)
    _changed(t)
    return _describe(t)


def _last_drawn(t: Tournament, stage: str) -> int:
    return (
        Match.objects.filter(tournament=t, stage=stage).exclude(status=Match.Status.VOID)
        .order_by("-round_no").values_list("round_no", flat=True).first() or 0
    )


def _draw_round_robin(t: Tournament, seeded: list[Entrant]) -> None:
    t.stage = Tournament.Stage.ROUND_ROBIN
    t.current_round = 0
    by_id = {e.pk: e for e in seeded}
    for r, pairs in enumerate(pairing.round_robin([e.pk for e in seeded]), start=1):
        for slot, (a, b) in enumerate(pairs):
            Match.objects.create(
                tournament=t,
                stage=Tournament.Stage.ROUND_ROBIN,
                round_no=r,
                slot=slot,
                entrant1=by_id[a],
                entrant2=by_id.get(b),
                match_games=t.match_games,
                status=Match.Status.BYE if b is None else Match.Status.WAITING,
                decided_by=Match.Decided.BYE if b is None else Match.Decided.NONE,
            )


def _draw_bracket(t: Tournament, seeded: list[Entrant], match_games: int) -> None:
    t.stage = Tournament.Stage.KNOCKOUT
    t.current_round = 1
    rounds = pairing.bracket_rounds(len(seeded))
    for r in range(rounds, 1, -1):
        for slot in range(2 ** (rounds - r)):
            Match.objects.create(
                tournament=t, stage=Tournament.Stage.KNOCKOUT, round_no=r, slot=slot, match_games=match_games
            )
    for slot, (a, b) in enumerate(pairing.first_round(seeded)):
        m = Match.objects.create(
            tournament=t,
            stage=Tournament.Stage.KNOCKOUT,
            round_no=1,
            slot=slot,
            entrant1=a,
            entrant2=b,
            match_games=match_games,
        )
        if b is None:
            m.status, m.decided_by, m.winner = Match.Status.BYE, Match.Decided.BYE, a
            m.finished_at = timezone.now()
            m.save()
            _carry_winner(t, m)


def _knockout_rounds(t: Tournament) -> int:
    return (
        Match.objects.filter(tournament=t, stage=Tournament.Stage.KNOCKOUT)
        .order_by("-round_no")
        .values_list("round_no", flat=True)
        .first()
        or 0
    )


def _carry_winner(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """Put a bracket match's winner into their next match (replacing a corrected-away winner)."""
    if m.round_no >= _knockout_rounds(t):
        return
    r, slot, side = pairing.feeds(m.round_no, m.slot)
    nxt = Match.objects.select_for_update().get(
        tournament=t, stage=Tournament.Stage.KNOCKOUT, round_no=r, slot=slot
    )
    field = "entrant1_id" if side == 0 else "entrant2_id"
    if getattr(nxt, field) == m.winner_id:
        return
    if nxt.decided:
        raise NotNow(f"The next match ({nxt.label}) is already decided: correct that one first.")
    if nxt.game_id is not None:
        _notice(
            t,
            Notice.Kind.RESULT,
            f"Game {nxt.game_id} ({nxt.label}) no longer counts: a result before it "
            "was corrected, and the match starts again.",
            by=by,
        )
        nxt.game = None
        nxt.started_at = None
        nxt.extra_minutes = 0
        nxt.games1 = nxt.games2 = nxt.points1 = nxt.points2 = nxt.spread = 0
    nxt.status = Match.Status.WAITING
    setattr(nxt, field, m.winner_id)
    nxt.save()


def _start_match(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """Create the match's game with the tournament's house rules, or award a walkover (without
    moving the tournament on: the caller's loop does that)."""
    m.refresh_from_db()
    if m.status != Match.Status.WAITING or m.game_id is not None or not (m.entrant1_id and m.entrant2_id):
        return
    e1, e2 = m.entrant1, m.entrant2
    if e1.withdrawn and e2.withdrawn:
        m.status, m.decided_by, m.note = Match.Status.VOID, Match.Decided.WITHDRAWAL, "Both players withdrew."
        m.finished_at = timezone.now()
        m.save()
        return
    if e1.withdrawn or e2.withdrawn:
        gone = e1 if e1.withdrawn else e2
        outcomes._decide(
            t, m, 1 if e1.withdrawn else 0, Match.Decided.WITHDRAWAL, f"{gone.name} withdrew.", progress=False
        )
        return
    # No clock yet: it starts when both players have come to the board (running.on_player_arrived).
    game = game_services.game_create_between(
        players=[e1.user, e2.user],
        rules=t.rules_for(m.match_games),
        rated=t.rated,
        created_by=by or t.created_by or e1.user,
        turn_timer=0,
        organised=True,
    )
    m.game = game
    m.status = Match.Status.ACTIVE
    m.started_at = game.created_at
    m.save()
    lobbies_changed_on_commit(t)
    players_told_on_commit(e1.user_id, e2.user_id)
    # Each player's last board in this event (the one they may still have open) says their next
    # match is ready, pushed.
    earlier = Match.objects.filter(tournament=t, game__isnull=False).exclude(pk=m.pk).exclude(
        status=Match.Status.ACTIVE).order_by(F("finished_at").desc(nulls_last=True), "-pk")
    last = {earlier.filter(Q(entrant1=e) | Q(entrant2=e)).values_list("game_id", flat=True).first()
            for e in (e1, e2)}
    game_services.redraw_boards([game_id for game_id in last if game_id is not None])


def _progress(t: Tournament, *, force: bool = False, by: AbstractBaseUser | None = None) -> None:
    """Do whatever is due: open the next round, seed the playoff, start ready matches, finish.

    ``force`` (the organiser's "advance"): open the next round even when matches are still being
    played (round robin), or start ready bracket matches when rounds do not start by themselves.
    """
    for _ in range(100):  # each pass moves one step; a walkover can make the next step due at once
        if t.status != Tournament.Status.RUNNING:
            return
        if t.stage in (Tournament.Stage.ROUND_ROBIN, Tournament.Stage.QUALIFYING):
            if not _progress_rounds(t, force, by):
                return
        elif not _progress_knockout(t, force, by):
            return
        force = False


def _progress_rounds(t: Tournament, force: bool, by) -> bool:
    """A round robin's or a qualifying's next step: open the next round (pairing it first, in
    qualifying games), or once every round is decided seed the playoff or name the champion."""
    stage = t.stage
    last = t.qualifying_games if stage == Tournament.Stage.QUALIFYING else _last_drawn(t, stage)
    open_so_far = _undecided(t).filter(stage=stage, round_no__lte=t.current_round).exists()
    if t.current_round < last:
        automatic = t.auto_advance and not t.paused and not open_so_far
        if not (t.current_round == 0 or force or automatic):
            return False
        nxt = t.current_round + 1
        if stage == Tournament.Stage.QUALIFYING and not qualifying.is_drawn(t, nxt):
            if open_so_far:
                return False  # paired from the results of the round before, so it waits for them
            try:
                qualifying.pair_next(t, nxt)
            except NotNow as exc:
                if force:
                    raise
                _notice_once(t, Notice.Kind.ROUND, f"{exc.message} The director decides what follows.")
                return False
        _open_round(t, nxt, by)
        return True
    if open_so_far or (t.paused and not force):
        return False
    table = standings(t)
    active = [row for row in table if not row.withdrawn]
    places = pairing.qualifier_count(len(active), t.qualifiers) if t.has_qualifying else 1
    tied = qualifying.tie_across(table, places) if len(active) > places else []
    if tied:
        what = "the last playoff places" if t.has_qualifying else "first place"
        text = (f"{', '.join(e.name for e in tied)} are level on every tie-break for {what}: the "
                "director records a cut of the cards to separate them.")
        if force:
            raise NotNow(text)
        _notice_once(t, Notice.Kind.ROUND, text)
        return False
    if t.has_qualifying:
        _draw_playoff(t, table, by)
        return True
    _finish(t, next((row.player for row in active), None), by)
    return False


def _open_round(t: Tournament, round_no: int, by) -> None:
    t.current_round = round_no
    t.save(update_fields=["current_round"])
    matches = Match.objects.filter(
        tournament=t, stage=t.stage, round_no=round_no, status=Match.Status.WAITING
    ).select_related("entrant1__user", "entrant2__user")
    for m in matches:
        _start_match(t, m, by=by)
    text = f"Round {round_no} has begun."
    if t.stage == Tournament.Stage.QUALIFYING:
        text = f"Qualifying round {round_no} of {t.qualifying_games} has begun."
        bye = Match.objects.filter(tournament=t, stage=t.stage, round_no=round_no, status=Match.Status.BYE,
                                   entrant2__isnull=True).select_related("entrant1__user").first()
        if bye is not None:
            text += f" {bye.entrant1.name} has the bye (a win, no spread)."
    _notice(t, Notice.Kind.ROUND, text)


def _progress_knockout(t: Tournament, force: bool, by) -> bool:
    ko = Match.objects.filter(tournament=t, stage=Tournament.Stage.KNOCKOUT)
    rounds = _knockout_rounds(t)
    final = ko.filter(round_no=rounds).select_related("winner").first()
    if final is not None and final.decided:
        _finish(t, final.winner, by)
        return False
    lowest = (
        ko.exclude(status__in=[Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID])
        .order_by("round_no")
        .values_list("round_no", flat=True)
        .first()
    )
    if lowest and lowest != t.current_round:
        t.current_round = lowest
        t.save(update_fields=["current_round"])
    if not force and (not t.auto_advance or t.paused):
        return False
    ready = ko.filter(
        status=Match.Status.WAITING, entrant1__isnull=False, entrant2__isnull=False, game__isnull=True
    )
    started = False
    for m in list(ready.select_related("entrant1__user", "entrant2__user")):
        _start_match(t, m, by=by)
        started = True
    # A walkover may have made more matches ready (or decided the final): look again.
    return started


def _draw_playoff(t: Tournament, table: list[pairing.Standing], by) -> None:
    table = [row for row in table if not row.withdrawn]
    count = pairing.qualifier_count(len(table), t.qualifiers)
    qualified = [row.player for row in table[:count]]
    if len(qualified) < 2:  # withdrawals left fewer than two: no playoff to play
        _finish(t, qualified[0] if qualified else None, by)
        return
    for rank, entrant in enumerate(qualified, start=1):
        Entrant.objects.filter(pk=entrant.pk).update(qualifying_rank=rank)
        entrant.qualifying_rank = rank
    _draw_bracket(t, qualified, t.playoff_match_games)
    t.save()
    names = ", ".join(f"{i}. {e.name}" for i, e in enumerate(qualified, start=1))
    _notice(
        t, Notice.Kind.ROUND, f"Qualifying is over. The playoff, seeded by qualifying rank: {names}.", by=by
    )


def _finish(t: Tournament, winner: Entrant | None, by) -> None:
    t.status = Tournament.Status.FINISHED
    t.finished_at = timezone.now()
    t.champion = winner.user if winner else None
    t.save()
    text = f"The tournament is over: {winner.name} is the champion." if winner else "The tournament is over."
    _notice(t, Notice.Kind.FINISH, text, by=by)
    log.info("tournament=%s action=finish champion=%s", t.pk, getattr(t.champion, "pk", None))


@transaction.atomic
def tournament_cancel(
    *, tournament_id: int, by: AbstractBaseUser | None = None, reason: str = ""
) -> Tournament:
    t = _lock(tournament_id)
    if t.status not in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING):
        raise NotNow("The tournament is already over.")
    t.status = Tournament.Status.CANCELLED
    t.finished_at = timezone.now()
    t.save()
    # Games in play go on for their players but no longer count, so no clock can forfeit them
    # either; their boards are redrawn to say so.
    open_games = list(_undecided(t).filter(game__status=Game.Status.ACTIVE).values_list("game_id", flat=True))
    _undecided(t).update(status=Match.Status.VOID)
    game_services.organiser_notice(
        game_ids=open_games, text=f"The tournament {t.name} was cancelled: this game no longer counts.")
    _notice(t, Notice.Kind.CANCEL, "The tournament has been cancelled.", reason=reason, by=by)
    _changed(t)
    return t
