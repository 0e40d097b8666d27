"""How a tournament game reads wherever it is shown (the board, the watch page, the game record, the
lists): the tournament's answer to ``games.play.registry``, registered in ``TournamentsConfig.ready``.

A match decided off the board (a forfeit, a withdrawal) ends its game in play by a resignation made on
the loser's behalf (``services.progress.decide``): the game's own result says "by resignation", and
only the match knows what happened. A result the director enters is put on the game itself
(``games.play.game_result``), so every screen shows it; the match adds only the director's reason.
A cancelled tournament leaves its open games to be played out, but they no longer count.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from games.play.models import Game
from games.play.narration import ENTERED_MARK
from games.play.registry import Ending
from games.tournaments import naming
from games.tournaments.models import Match, Tournament

HOW = {
    Match.Decided.FORFEIT: "by forfeit",
    Match.Decided.WITHDRAWAL: "by withdrawal",
    Match.Decided.ADMIN: f"({ENTERED_MARK})",
}
# A match decided off the board, as a list of games says it ended.
LIST_WORDS = {
    Match.Decided.FORFEIT: "forfeit",
    Match.Decided.WITHDRAWAL: "withdrawal",
    Match.Decided.ADMIN: ENTERED_MARK,
}


@dataclass(frozen=True)
class GameInTournament:
    """A tournament's match, as ``games.play.registry.Organised``."""

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
    def round_label(self) -> str:
        m = self.match
        return naming.lower_first(m.tournament.round_name(m.stage, m.round_no))

    @property
    def void(self) -> bool:
        return self.match.status == Match.Status.VOID

    @property
    def abort_refusal(self) -> str:
        return "A tournament game cannot be called off; you can resign."

    @property
    def list_word(self) -> str:
        return LIST_WORDS.get(self.match.decided_by, "")

    def ending(self, winner_seat: int | None, resigned: bool) -> Ending | None:
        m = self.match
        if m.status != Match.Status.FINISHED or m.decided_by not in HOW or winner_seat is None:
            return None
        note = m.decision_note()
        side = m.side_of(m.winner_id)  # entrant 1 has seat 0 (services.progress.start_match)
        if side != winner_seat:  # the organiser gave the match to the player who lost the game
            return Ending("", f"The organiser gave the match to {m.winner.name}. {note}")
        return Ending(HOW[m.decided_by] if resigned else "", note)

    def next_game_for(self, user_id: int) -> int | None:
        return (
            Match.objects.filter(tournament_id=self.match.tournament_id, status=Match.Status.ACTIVE,
                                 game__isnull=False)
            .filter(Q(entrant1__user_id=user_id) | Q(entrant2__user_id=user_id))
            .exclude(pk=self.match.pk)
            .order_by("-started_at")
            .values_list("game_id", flat=True)
            .first()
        )

    def ending_of(self, game: Game) -> Ending | None:
        games = (game.result or {}).get("games") or []
        return self.ending(game.winner_seat, bool(games) and games[-1].get("reason") == "resign")


def lookup(game_ids: list[int]) -> dict[int, GameInTournament]:
    """The tournament matches played as these games (``games.play.registry.register_organiser``)."""
    matches = Match.objects.filter(game_id__in=game_ids).select_related(
        "tournament", "winner__user", "entrant1__user", "entrant2__user")
    return {m.game_id: GameInTournament(m) for m in matches}


def for_game(game: Game) -> GameInTournament | None:
    """``game``'s match and tournament, or None for a game played outside any tournament."""
    return lookup([game.pk]).get(game.pk)
