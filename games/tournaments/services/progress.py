"""A tournament's progress, owned here and nowhere else: a match decided (on the board or off it)
and everything that follows from it (a bracket's winner carried on, the next round opened, the
playoff seeded, the champion named), and the draws that make the matches.

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

from games.play import endings
from games.play import services as game_services
from games.play.models import Game, Move
from games.tournaments import pairing, selectors
from games.tournaments.broadcast import lobbies_changed_on_commit, players_told_on_commit
from games.tournaments.models import Entrant, Match, Notice, Tournament
from games.tournaments.services import qualifying_draw
from games.tournaments.services.common import post_notice, post_notice_once
from games.tournaments.services.errors import NotNow

log = logging.getLogger("games.tournaments")

_moving_on: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar("moving_on", default=frozenset())


# --- a match decided ------------------------------------------------------------------------------


def score_from_game(t: Tournament, m: Match, game: Game) -> None:
    """Fill ``m``'s figures from its finished game (games won, qualifying points, spread) and how
    it ended (played out, resigned, lost on time or to a claim), and close it."""
    result = game.result or {}
    scoring = t.scoring
    games, points, spread = [0, 0], [0, 0], 0
    for g in result.get("games", []):
        w = g["winner"]
        games[w] += 1
        points[w] += scoring.game_points(g.get("skunk", 0))
        s = pairing.game_spread(t.target, g["loser_score"])
        spread += s if w == 0 else -s
    m.games1, m.games2 = games
    m.points1, m.points2 = points
    m.spread = spread
    m.winner = m.entrant1 if game.winner_seat == 0 else m.entrant2
    last = Move.objects.filter(game=game).order_by("-seq").values_list("action", flat=True).first()
    resigned = bool(last) and last.get("type") == "resign"  # also between the games of a match
    m.decided_by = Match.Decided.RESIGN if resigned else Match.Decided.PLAY
    site_ending = endings.ending_of(game) if resigned else None
    if site_ending is not None:
        m.decided_by = Match.Decided.TIME if site_ending["how"] == endings.TIME else Match.Decided.CLAIM
    close(m)


def close(m: Match) -> None:
    m.status = Match.Status.FINISHED
    m.finished_at = m.finished_at or timezone.now()
    m.save()


def after_result(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None, move: bool = True) -> None:
    """A bracket match's winner goes to their next match; then whatever is due happens."""
    if m.stage == Tournament.Stage.KNOCKOUT and m.winner_id is not None:
        carry_winner(t, m, by=by)
    if move:
        move_on(t, by=by)


def walkover_values(t: Tournament, m: Match, winner_side: int) -> dict:
    """A match won without play: the games needed to win it, each a plain win, and no spread."""
    need = selectors.games_to_win(m.match_games)
    games = (need, 0) if winner_side == 0 else (0, need)
    return {
        "games1": games[0],
        "games2": games[1],
        "spread": 0,
        "points1": games[0] * t.win_points,
        "points2": games[1] * t.win_points,
    }


def decide(
    t: Tournament,
    m: Match,
    winner_side: int,
    decided_by: str,
    note: str,
    values: dict | None = None,
    *,
    by: AbstractBaseUser | None = None,
    move: bool = True,
) -> None:
    """Decide a match off the board. A game in play is ended too, so its board shows the end: on
    the director's result (entered on the game), or by a resignation made on the loser's behalf
    (through games.play.services). The match is closed first, so the game_finished listener finds
    it decided and leaves it. ``move``: whether to move the event on here (not when the caller's
    own loop will)."""
    values = values or walkover_values(t, m, winner_side)
    for name, value in values.items():
        setattr(m, name, value)
    m.winner = m.entrant1 if winner_side == 0 else m.entrant2
    m.decided_by = decided_by
    m.note = note
    game = (Game.objects.filter(pk=m.game_id, status=Game.Status.ACTIVE).values_list("version", flat=True)
            .first() if m.game_id and not m.decided else None)
    close(m)
    if game is not None:
        if decided_by == Match.Decided.ADMIN:
            # The director's result: the game ends on it, and every screen shows it as entered.
            enter_on_game(m, winner_side)
        else:
            loser = m.entrant2 if winner_side == 0 else m.entrant1
            game_services.game_act(user=loser.user, game_id=m.game_id, version=game,
                                   action={"type": "resign"})
    after_result(t, m, by=by, move=move)


def entered_scores(text: str) -> list[list[int]]:
    """The game scores kept on a match, by side.

    >>> entered_scores("121-97, 88-121")
    [[121, 97], [88, 121]]
    """
    return [[int(n) for n in part.strip().split("-")] for part in text.split(",") if part.strip()]


def enter_on_game(m: Match, winner_side: int) -> None:
    """Put the director's result for ``m`` on its game (ending it if it is in play), so the board,
    the lists, the record and the statistics show what was entered."""
    in_play_or_over = (Game.Status.ACTIVE, Game.Status.FINISHED)
    if m.game_id is None or not Game.objects.filter(pk=m.game_id, status__in=in_play_or_over).exists():
        return
    game_services.game_enter_result(game_id=m.game_id, winner=winner_side, match_scores=(m.games1, m.games2),
                                    scores=entered_scores(m.game_scores))


def carry_winner(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """Put a bracket match's winner into their next match (replacing a corrected-away winner)."""
    if m.round_no >= t.knockout_rounds():
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
        players = [nxt.entrant1.user_id if nxt.entrant1_id else None,
                   nxt.entrant2.user_id if nxt.entrant2_id else None]
        post_notice(t, Notice.Kind.RESULT, "game_void", {"game": nxt.game_id, "users": players}, by=by)
        nxt.game = None
        nxt.started_at = None
        nxt.extra_minutes = 0
        nxt.games1 = nxt.games2 = nxt.points1 = nxt.points2 = nxt.spread = 0
    nxt.status = Match.Status.WAITING
    setattr(nxt, field, m.winner_id)
    nxt.save()


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
            carry_winner(t, m)


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
        decide(t, m, 1 if e1.withdrawn else 0, Match.Decided.WITHDRAWAL, f"{gone} withdrew.", move=False)
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
