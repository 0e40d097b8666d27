"""What tournaments do when play tells them something (``games.play.signals``, connected in
``TournamentsConfig.ready``): a game finished, a deal started, a player was served the board or
came to it."""

from __future__ import annotations

from games.play import services as game_services
from games.play.models import Connection, Game
from games.tournaments.broadcast import players_told_on_commit, tournament_changed_on_commit
from games.tournaments.models import Match, Tournament
from games.tournaments.services import decisions, progress
from games.tournaments.services.common import PRESET, changed, lock_tournament


def on_game_finished(sender, game: Game, **kwargs) -> None:
    """games.play.signals.game_finished: record the match result and move the tournament on. Runs inside
    the game's transaction, so the match and the game commit together."""
    tournament_id = Match.objects.filter(game=game).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    t = lock_tournament(tournament_id)
    m = (
        Match.objects.select_for_update(of=("self",))
        .select_related("entrant1__user", "entrant2__user")
        .filter(game=game)
        .first()
    )
    if m is None or m.decided or t.status != Tournament.Status.RUNNING:
        return
    if m.decided_by in PRESET:
        decisions.close(m)
    else:
        decisions.score_from_game(t, m, game)
    progress.after_result(t, m)
    changed(t)


def on_deal_started(sender, game: Game, **kwargs) -> None:
    """games.play.signals.deal_started: a tournament game's score changed, so its page shows the new one.
    Once a deal, not once a move: the page is drawn again for each push."""
    active = Match.objects.filter(game_id=game.pk, status=Match.Status.ACTIVE)
    tournament_id = active.values_list("tournament_id", flat=True).first()
    if tournament_id is not None:
        tournament_changed_on_commit(tournament_id)


def _active_match(game_id: int) -> Match | None:
    """The match in play on ``game_id``, with its event and entrants."""
    return (
        Match.objects.filter(game_id=game_id, status=Match.Status.ACTIVE)
        .select_related("tournament", "entrant1", "entrant2")
        .first()
    )


def _mark_served(m: Match, user) -> bool:
    """Mark ``m``'s current board served to ``user``, one of its players: whether the mark changed.
    Read from the loaded match, so a board served again costs no write."""
    for side, entrant in ((1, m.entrant1), (2, m.entrant2)):
        if entrant is not None and entrant.user_id == user.pk:
            field = f"board_served_game{side}"
            if getattr(m, field) == m.game_id:
                return False
            setattr(m, field, m.game_id)
            Match.objects.filter(pk=m.pk).update(**{field: m.game_id})
            return True
    return False


def on_board_served(sender, game_id: int, user, **kwargs) -> None:
    """games.play.signals.board_served: the player has the match's board in front of them, whether or
    not its socket ever connects, so their "Your match is ready" goes, from their other pages too."""
    m = _active_match(game_id)
    if m is not None and _mark_served(m, user):
        players_told_on_commit(user.pk)


def on_player_arrived(sender, game_id: int, user, **kwargs) -> None:
    """games.play.signals.player_arrived: a tournament game's turn timer starts once both players
    have come to its board, not when the round made the game (a player who never comes forfeits
    after the event's grace instead). A player come to their board is told on their other pages,
    whose "Your match is ready" goes."""
    m = _active_match(game_id)
    if m is None or m.tournament.status != Tournament.Status.RUNNING:
        return
    players = {m.entrant1.user_id, m.entrant2.user_id}
    if user.pk in players:  # a board whose page was served before the mark existed comes here
        _mark_served(m, user)
        players_told_on_commit(user.pk)  # the other pages they have open drop "Your match is ready"
    if not m.tournament.turn_timer:
        return
    arrived = set(
        Connection.objects.filter(game_id=game_id, user_id__in=players).values_list("user_id", flat=True)
    )
    if arrived >= players:
        game_services.organiser_start_turn_timer(game_id=game_id, seconds=m.tournament.turn_timer)
