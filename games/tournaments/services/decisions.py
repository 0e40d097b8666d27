"""How a match is decided: from its finished game (played out, resigned, lost on time or to a claim)
or off the board (a forfeit, a withdrawal, the director's result, a walkover), and a bracket's
winner carried on to their next match. What follows for the event (the next round, the playoff, the
champion) is ``progress``'s, which calls here; nothing here moves the event on.

Every caller holds the tournament's row lock (``common.lock_tournament``).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games.play import endings
from games.play import services as game_services
from games.play.models import Game, Move
from games.tournaments import pairing, selectors
from games.tournaments.models import Match, Notice, Tournament
from games.tournaments.services.common import post_notice
from games.tournaments.services.errors import NotNow


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


def decide_off_board(
    t: Tournament,
    m: Match,
    winner_side: int,
    decided_by: str,
    note: str,
    values: dict | None = None,
    *,
    by: AbstractBaseUser | None = None,
) -> None:
    """Decide a match off the board. A game in play is ended too, so its board shows the end: on
    the director's result (entered on the game), or by a resignation made on the loser's behalf
    (through games.play.services). The match is closed first, so the game_finished listener finds
    it decided and leaves it. A bracket's winner goes on to their next match; moving the event on
    is the caller's (``progress.decide``)."""
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
    carry_bracket_winner(t, m, by=by)


def carry_bracket_winner(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """A bracket match's winner goes to their next match."""
    if m.stage == Tournament.Stage.KNOCKOUT and m.winner_id is not None:
        carry_winner(t, m, by=by)


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
