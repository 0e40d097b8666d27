"""Results: a match scored from its game, or decided by the organiser, and what follows from each."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games.play import endings
from games.play import services as game_services
from games.play.models import Game, Move
from games.tournaments import pairing
from games.tournaments.broadcast import tournament_changed_on_commit
from games.tournaments.models import Match, Tournament
from games.tournaments.services import rounds
from games.tournaments.services.common import (
    PRESET,
    _changed,
    _lock,
    games_to_win,
)

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
        if decided_by == Match.Decided.ADMIN:
            # The director's result: the game ends on it, and every screen shows it as entered.
            enter_on_game(m, winner_side)
        else:
            loser = m.entrant2 if winner_side == 0 else m.entrant1
            game_services.game_act(
                user=loser.user, game_id=game.pk, version=game.version, action={"type": "resign"}
            )
        m.refresh_from_db()
        t.refresh_from_db()  # the listener closed the match and moved the tournament on
        return
    _close(m)
    _after_result(t, m, by=by, progress=progress)


def entered_scores(text: str) -> list[list[int]]:
    """The game scores kept on a match ("121-97, 88-121", the first player's first), by side."""
    return [[int(n) for n in part.strip().split("-")] for part in text.split(",") if part.strip()]


def enter_on_game(m: Match, winner_side: int) -> None:
    """Put the director's result for ``m`` on its game (ending it if it is in play), so the board,
    the lists, the record and the statistics show what was entered."""
    in_play_or_over = (Game.Status.ACTIVE, Game.Status.FINISHED)
    if m.game_id is None or not Game.objects.filter(pk=m.game_id, status__in=in_play_or_over).exists():
        return
    game_services.game_enter_result(game_id=m.game_id, winner=winner_side, match_scores=(m.games1, m.games2),
                                    scores=entered_scores(m.game_scores))
