"""How a tournament game reads wherever it is shown (the board, the watch page, the game record).

A match decided off the board (a forfeit, a withdrawal, the organiser's result) ends its game in play
by a resignation made on the loser's behalf (``services._decide``): the game's own result says
"by resignation", and only the match knows what happened. A cancelled tournament leaves its open
games to be played out, but they no longer count.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.play.models import Game
from games.tournaments.models import Match, Tournament

HOW = {
    Match.Decided.FORFEIT: "by forfeit",
    Match.Decided.WITHDRAWAL: "by withdrawal",
    Match.Decided.ADMIN: "by the organiser's decision",
}


@dataclass(frozen=True)
class Ending:
    """``how`` follows "dave wins" in place of the game's own words (empty: keep them); ``note``
    says why, for a line of its own."""

    how: str
    note: str


@dataclass(frozen=True)
class GameInTournament:
    match: Match

    @property
    def tournament(self) -> Tournament:
        return self.match.tournament

    @property
    def name(self) -> str:
        return self.tournament.name

    @property
    def url(self) -> str:
        return self.tournament.get_absolute_url()

    @property
    def cancelled(self) -> bool:
        """The tournament was cancelled while this game was open: it no longer counts."""
        cancelled = self.tournament.status == Tournament.Status.CANCELLED
        return cancelled and self.match.status == Match.Status.VOID

    @property
    def cancelled_text(self) -> str:
        return f"The tournament {self.name} was cancelled: this game no longer counts."

    def ending(self, winner_seat: int | None, resigned: bool) -> Ending | None:
        """How the game's end reads, given the seat that won the match and whether a resignation
        ended its last game (one made between two games leaves the last game as it was played).
        None: as the game has it (played out, or a player's own resignation)."""
        m = self.match
        if m.status != Match.Status.FINISHED or m.decided_by not in HOW or winner_seat is None:
            return None
        note = m.decision_note()
        side = m.side_of(m.winner_id)  # entrant 1 has seat 0 (services._start_match)
        if side != winner_seat:  # the organiser gave the match to the player who lost the game
            return Ending("", f"The organiser gave the match to {m.winner.name}. {note}")
        return Ending(HOW[m.decided_by] if resigned else "", note)

    def ending_of(self, game: Game) -> Ending | None:
        """``ending`` for a finished game, from its stored result."""
        games = (game.result or {}).get("games") or []
        return self.ending(game.winner_seat, bool(games) and games[-1].get("reason") == "resign")


def for_game(game: Game) -> GameInTournament | None:
    """``game``'s match and tournament, or None for a game played outside any tournament."""
    match = (
        Match.objects.filter(game_id=game.pk)
        .select_related("tournament", "winner__user", "entrant1__user", "entrant2__user")
        .first()
    )
    return GameInTournament(match) if match is not None else None
