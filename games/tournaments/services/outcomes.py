"""Results: a match scored from its game, or decided by the organiser, and what follows from each."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.play import endings
from games.play import services as game_services
from games.play.models import Game, Move
from games.tournaments import pairing
from games.tournaments.broadcast import tournament_changed_on_commit
from games.tournaments.models import Match, Notice, Tournament
from games.tournaments.services import rounds
from games.tournaments.services.common import (
    PRESET,
    _changed,
    _lock,
    _lock_match,
    _notice,
    games_to_win,
    standings,
)
from games.tournaments.services.errors import NotNow, TournamentError

log = logging.getLogger("games.tournaments")

def on_game_finished(sender, game: Game, **kwargs) -> None:
    """games.play.signals.game_finished: record the match result and move the tournament on. Runs inside
    the game's transaction, so the match and the game commit together."""
    tournament_id = Match.objects.filter(game=game).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    t = _lock(tournament_id)
    m = (
        Match.objects.select_for_update(of=("self",))
        .select_related("entrant1__user", "entrant2__user")
        .filter(game=game)
        .first()
    )
    if m is None or m.decided or t.status != Tournament.Status.RUNNING:
        return
    if m.decided_by in PRESET:
        _close(m)
    else:
        _score_from_game(t, m, game)
    _after_result(t, m)
    _changed(t)


def on_deal_started(sender, game: Game, **kwargs) -> None:
    """games.play.signals.deal_started: a tournament game's score changed, so its page shows the new one.
    Once a deal, not once a move: every watcher's socket draws the whole page for each push."""
    active = Match.objects.filter(game_id=game.pk, status=Match.Status.ACTIVE)
    tournament_id = active.values_list("tournament_id", flat=True).first()
    if tournament_id is not None:
        tournament_changed_on_commit(tournament_id)


def _score_from_game(t: Tournament, m: Match, game: Game) -> None:
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
    _close(m)


def _close(m: Match) -> None:
    m.status = Match.Status.FINISHED
    m.finished_at = m.finished_at or timezone.now()
    m.save()


def _after_result(
    t: Tournament, m: Match, by: AbstractBaseUser | None = None, *, progress: bool = True
) -> None:
    if m.stage == Tournament.Stage.KNOCKOUT and m.winner_id is not None:
        rounds._carry_winner(t, m, by=by)
    if progress:
        rounds._progress(t, by=by)


def _walkover_values(t: Tournament, m: Match, winner_side: int) -> dict:
    """A match won without play: the games needed to win it, each a plain win, and no spread."""
    need = games_to_win(m.match_games)
    games = (need, 0) if winner_side == 0 else (0, need)
    return {
        "games1": games[0],
        "games2": games[1],
        "spread": 0,
        "points1": games[0] * t.win_points,
        "points2": games[1] * t.win_points,
    }


def _decide(
    t: Tournament,
    m: Match,
    winner_side: int,
    decided_by: str,
    note: str,
    values: dict | None = None,
    *,
    by: AbstractBaseUser | None = None,
    progress: bool = True,
) -> None:
    """Decide a match off the board. A game in play is resigned on the loser's behalf (through
    games.play.services), so the board shows the end too; the listener keeps the values set here."""
    values = values or _walkover_values(t, m, winner_side)
    for name, value in values.items():
        setattr(m, name, value)
    m.winner = m.entrant1 if winner_side == 0 else m.entrant2
    m.decided_by = decided_by
    m.note = note
    game = Game.objects.filter(pk=m.game_id).first() if m.game_id else None
    if game is not None and game.status == Game.Status.ACTIVE and not m.decided:
        m.save()
        loser = m.entrant2 if winner_side == 0 else m.entrant1
        game_services.game_act(
            user=loser.user, game_id=game.pk, version=game.version, action={"type": "resign"}
        )
        m.refresh_from_db()
        t.refresh_from_db()  # the listener closed the match and moved the tournament on
        return
    _close(m)
    _after_result(t, m, by=by, progress=progress)


@transaction.atomic
def match_set_result(
    *,
    match_id: int,
    winner_id: int,
    reason: str,
    by: AbstractBaseUser | None = None,
    games1: int | None = None,
    games2: int | None = None,
    points1: int | None = None,
    points2: int | None = None,
    spread: int | None = None,
) -> Match:
    """The organiser sets or corrects a match result. The reason is kept and shown to players."""
    t, m = _lock_match(match_id)
    reason = reason.strip()
    if not reason:
        raise TournamentError("Give a reason: players see it on the tournament page.")
    if t.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise NotNow("Results can only be set while the tournament runs (or corrected after it).")
    if not (m.entrant1_id and m.entrant2_id) or m.status == Match.Status.BYE:
        raise NotNow("This match has no two players yet.")
    if winner_id not in (m.entrant1_id, m.entrant2_id):
        raise TournamentError("The winner must be one of the match's two players.")
    winner_side = 0 if winner_id == m.entrant1_id else 1
    was_decided = m.decided
    old = (m.winner_id, m.games1, m.games2)
    keep = was_decided and m.winner_id == winner_id
    values = (
        {
            "games1": m.games1,
            "games2": m.games2,
            "points1": m.points1,
            "points2": m.points2,
            "spread": m.spread,
        }
        if keep
        else _walkover_values(t, m, winner_side)
    )
    given = {"games1": games1, "games2": games2, "points1": points1, "points2": points2, "spread": spread}
    values.update({k: v for k, v in given.items() if v is not None})
    if (values["games1"] > values["games2"]) != (winner_side == 0) and values["games1"] != values["games2"]:
        raise TournamentError("The winner must not have won fewer games than the loser.")
    winner = m.entrant1 if winner_side == 0 else m.entrant2
    won, lost = (values["games1"], values["games2"])[:: 1 if winner_side == 0 else -1]
    text = (
        f"Result {'corrected' if was_decided else 'set'} by the organiser: {m.label} "
        f"({m.get_stage_display().lower()} round {m.round_no}): {winner.name} wins {won}–{lost}."
    )
    if was_decided:
        for name, value in values.items():
            setattr(m, name, value)
        m.winner = winner
        m.decided_by = Match.Decided.ADMIN
        m.note = reason
        m.status = Match.Status.FINISHED
        m.save()
        if t.status == Tournament.Status.RUNNING or m.stage == Tournament.Stage.KNOCKOUT:
            if m.stage == Tournament.Stage.KNOCKOUT and old[0] != winner_id:
                rounds._carry_winner(t, m, by=by)
                if t.status == Tournament.Status.FINISHED and m.round_no == rounds._knockout_rounds(t):
                    t.champion = winner.user
                    t.save(update_fields=["champion"])
            rounds._progress(t, by=by)
        if t.status == Tournament.Status.FINISHED and t.format == Tournament.Format.ROUND_ROBIN:
            top = next((row.player for row in standings(t) if not row.withdrawn), None)
            if top is not None and top.user_id != t.champion_id:
                t.champion = top.user
                t.save(update_fields=["champion"])
                text += f" {top.name} is now the champion."
    else:
        if t.status != Tournament.Status.RUNNING:
            raise NotNow("The tournament is over.")
        _decide(t, m, winner_side, Match.Decided.ADMIN, reason, values, by=by)
    _notice(t, Notice.Kind.RESULT, text, reason=reason, by=by)
    _changed(t)
    log.info(
        "tournament=%s match=%s action=set_result winner=%s by=%s",
        t.pk,
        m.pk,
        winner_id,
        getattr(by, "pk", None),
    )
    return m
