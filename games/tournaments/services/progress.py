"""A tournament's progress, owned here and nowhere else: everything that follows from a match
decided (``decisions``: on the board or off it, a bracket's winner carried on), the next round
opened, the playoff seeded, the champion named, and the draws that make the matches.

Every caller holds the tournament's row lock (``common.lock_tournament``). ``move_on`` is the one
loop: each pass takes one step (a round opened, ready matches started, the playoff drawn), and a
walkover found while starting a match can make the next step due at once. A pass counts only if it
moved the event's mark (stage, round, matches started) forward, which is finite, so the loop ends;
a call made while the same tournament is already being moved on (a result decided inside a step)
leaves the step to the loop that is running.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
from collections.abc import Iterator

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Q
from django.utils import timezone

from games.play import services as game_services
from games.tournaments import pairing, selectors
from games.tournaments.broadcast import lobbies_changed_on_commit, players_told_on_commit
from games.tournaments.models import Entrant, Match, Notice, Tournament
from games.tournaments.services import decisions, qualifying_draw
from games.tournaments.services.common import post_notice, post_notice_once
from games.tournaments.services.errors import NotNow

log = logging.getLogger("games.tournaments")

_moving_on: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar("moving_on", default=frozenset())


# --- a match decided: what follows -----------------------------------------------------------------


def after_result(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """A match whose game has finished (``listeners.on_game_finished``): a bracket match's winner
    goes to their next match; then whatever is due happens."""
    decisions.carry_bracket_winner(t, m, by=by)
    move_on(t, by=by)


def decide(
    t: Tournament,
    m: Match,
    winner_side: int,
    decided_by: str,
    note: str,
    values: dict | None = None,
    *,
    by: AbstractBaseUser | None = None,
) -> None:
    """Decide a match off the board (``decisions.decide_off_board``), then do whatever is due."""
    decisions.decide_off_board(t, m, winner_side, decided_by, note, values, by=by)
    move_on(t, by=by)


# --- the draws ------------------------------------------------------------------------------------


def draw_round_robin(t: Tournament, seeded: list[Entrant]) -> None:
    t.stage = Tournament.Stage.ROUND_ROBIN
    t.current_round = 0
    by_id = {e.pk: e for e in seeded}
    Match.objects.bulk_create([
        Match(
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
        for r, pairs in enumerate(pairing.round_robin([e.pk for e in seeded]), start=1)
        for slot, (a, b) in enumerate(pairs)
    ])


def draw_bracket(t: Tournament, seeded: list[Entrant], match_games: int) -> None:
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
            decisions.carry_winner(t, m)


def start_match(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """Create the match's game with the tournament's house rules, or award a walkover (without
    moving the tournament on: ``move_on``'s loop does that)."""
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
        gone = "{1}" if e1.withdrawn else "{2}"  # the player's name when shown (Match.note_text)
        # A walkover: ``move_on``'s loop, which started this match, looks again after its step.
        decisions.decide_off_board(t, m, 1 if e1.withdrawn else 0, Match.Decided.WITHDRAWAL,
                                   f"{gone} withdrew.")
        return
    # No clock yet: it starts when both players have come to the board (listeners.on_player_arrived).
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


# --- moving on ------------------------------------------------------------------------------------


def _mark(t: Tournament) -> tuple:
    """How far the event has gone: it only ever grows, and it is bounded (the rounds and matches
    are finite), so a loop that stops when it stops growing stops."""
    stage = 1 if t.stage == Tournament.Stage.KNOCKOUT else 0
    finished = t.status != Tournament.Status.RUNNING
    return (finished, stage, t.current_round, selectors.started_count(t))


@contextlib.contextmanager
def held(t: Tournament) -> Iterator[None]:
    """Results decided one after another (a round's score sheet) leave the event where it is; the
    caller moves it on once, after the last."""
    token = _moving_on.set(_moving_on.get() | {t.pk})
    try:
        yield
    finally:
        _moving_on.reset(token)


def move_on(t: Tournament, *, force: bool = False, by: AbstractBaseUser | None = None) -> None:
    """Do whatever is due: open the next round, seed the playoff, start ready matches, finish.

    ``force`` (the director's "advance"): open the next round even when matches are still being
    played (round robin), or start ready bracket matches when rounds do not start by themselves.
    """
    if t.pk in _moving_on.get():
        return  # the loop already running for this event looks again after its step
    token = _moving_on.set(_moving_on.get() | {t.pk})
    try:
        mark = _mark(t)
        while t.status == Tournament.Status.RUNNING and _step(t, force, by):
            force = False
            now = _mark(t)
            if now <= mark:
                log.warning("tournament=%s action=move_on stopped: a step left the event where it was", t.pk)
                return
            mark = now
    finally:
        _moving_on.reset(token)


def _step(t: Tournament, force: bool, by) -> bool:
    """One step; whether another may be due at once."""
    if t.stage in (Tournament.Stage.ROUND_ROBIN, Tournament.Stage.QUALIFYING):
        return _step_rounds(t, force, by)
    return _step_knockout(t, force, by)


def _step_rounds(t: Tournament, force: bool, by) -> bool:
    """A round robin's or a qualifying's next step: open the next round (pairing it first, in
    qualifying games), or once every round is decided seed the playoff or name the champion."""
    stage = t.stage
    last = t.qualifying_games if stage == Tournament.Stage.QUALIFYING else selectors.last_drawn(t, stage)
    open_so_far = selectors.undecided(t).filter(stage=stage, round_no__lte=t.current_round).exists()
    if t.current_round < last:
        automatic = t.auto_advance and not t.paused and not open_so_far
        if not (t.current_round == 0 or force or automatic):
            return False
        nxt = t.current_round + 1
        if stage == Tournament.Stage.QUALIFYING and not selectors.is_drawn(t, nxt):
            if open_so_far:
                return False  # paired from the results of the round before, so it waits for them
            try:
                qualifying_draw.pair_next(t, nxt)
            except NotNow as exc:
                if force:
                    raise
                text = f"{exc.message} The director decides what follows."
                post_notice_once(t, Notice.Kind.ROUND, "", text=text)
                return False
        open_round(t, nxt, by)
        return True
    if open_so_far or (t.paused and not force):
        return False
    table = selectors.standings(t)
    tied = selectors.cut_tie(t, table)
    if tied:
        details = {"users": [e.user_id for e in tied], "playoff": t.has_qualifying}
        if force:
            what = "the last playoff places" if t.has_qualifying else "first place"
            raise NotNow(f"{', '.join(e.name for e in tied)} are level on every tie-break for {what}: the "
                         "director records a cut of the cards to separate them.")
        post_notice_once(t, Notice.Kind.ROUND, "tie_for_cut", details)
        return False
    active = [row for row in table if not row.withdrawn]
    if t.has_qualifying:
        draw_playoff(t, table, by)
        return True
    finish(t, next((row.player for row in active), None), by)
    return False


def open_round(t: Tournament, round_no: int, by) -> None:
    t.current_round = round_no
    t.save(update_fields=["current_round"])
    matches = Match.objects.filter(
        tournament=t, stage=t.stage, round_no=round_no, status=Match.Status.WAITING
    ).select_related("entrant1__user", "entrant2__user")
    for m in matches:
        start_match(t, m, by=by)
    details = {"round": round_no}
    if t.stage == Tournament.Stage.QUALIFYING:
        details["of"] = t.qualifying_games
        bye = Match.objects.filter(tournament=t, stage=t.stage, round_no=round_no, status=Match.Status.BYE,
                                   entrant2__isnull=True).select_related("entrant1").first()
        if bye is not None:
            details["bye"] = bye.entrant1.user_id
    post_notice(t, Notice.Kind.ROUND, "round_opened", details)


def _step_knockout(t: Tournament, force: bool, by) -> bool:
    ko = Match.objects.filter(tournament=t, stage=Tournament.Stage.KNOCKOUT)
    rounds = t.knockout_rounds()
    final = ko.filter(round_no=rounds).select_related("winner").first()
    if final is not None and final.decided:
        finish(t, final.winner, by)
        return False
    lowest = (
        ko.exclude(status__in=selectors.DECIDED)
        .order_by("round_no")
        .values_list("round_no", flat=True)
        .first()
    )
    if lowest and lowest != t.current_round:
        t.current_round = lowest
        t.save(update_fields=["current_round"])
    if not force and (not t.auto_advance or t.paused):
        return False
    started = False
    for m in list(selectors.ready_knockout_matches(t)):
        start_match(t, m, by=by)
        started = True
    # A walkover may have made more matches ready (or decided the final): look again.
    return started


def draw_playoff(t: Tournament, table: list[pairing.Standing], by) -> None:
    table = [row for row in table if not row.withdrawn]
    count = pairing.qualifier_count(len(table), t.qualifiers)
    qualified = [row.player for row in table[:count]]
    if len(qualified) < 2:  # withdrawals left fewer than two: no playoff to play
        finish(t, qualified[0] if qualified else None, by)
        return
    for rank, entrant in enumerate(qualified, start=1):
        Entrant.objects.filter(pk=entrant.pk).update(qualifying_rank=rank)
        entrant.qualifying_rank = rank
    draw_bracket(t, qualified, t.playoff_match_games)
    t.save()
    post_notice(t, Notice.Kind.ROUND, "playoff_drawn", {"users": [e.user_id for e in qualified]}, by=by)


def finish(t: Tournament, winner: Entrant | None, by) -> None:
    t.status = Tournament.Status.FINISHED
    t.finished_at = timezone.now()
    t.champion = winner.user if winner else None
    t.save()
    post_notice(t, Notice.Kind.FINISH, "finished", {"champion": winner.user_id if winner else None}, by=by)
    log.info("tournament=%s action=finish champion=%s", t.pk, getattr(t.champion, "pk", None))
