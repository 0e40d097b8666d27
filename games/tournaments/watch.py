"""Watching a tournament match: a read-only board for anyone, with only what the table shows.

A spectator sees what *both* players can see: the scores and pegs, the cut, the starter, every card
laid in the play, each hand and the crib once its count begins, the deal's log, and how many cards
each player holds, face down. The context below is built from seat 0's view by copying those
public values one by one; the view itself (which holds seat 0's hand) never reaches the template.
Only tournament games can be watched: a friendly game stays private to its players."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe

from games.engine.view import view
from games.play.board import (
    PHASE_TITLES,
    TRACK_COLORS,
    jinja_template,
    off_board,
    result_summary,
    table_of,
    turn_clock,
    turn_word,
)
from games.play.models import Game
from games.play.narration import log_lines
from games.play.services import load_state
from games.tournaments.results import for_game


def match_of(game: Game):
    """The tournament match ``game`` is played for, or None."""
    return game.tournament_matches.select_related("tournament").first()


def watchable_game(game_id: int) -> Game | None:
    """The game, if it is a two-player tournament game that has begun."""
    game = Game.objects.for_play(game_id)
    if game is None or game.state is None or game.players != 2 or match_of(game) is None:
        return None
    return game


def watch_context(game: Game) -> dict:
    v = view(load_state(game), 0)
    names = list(game.seat_names())
    shown = {h.seat: h.cards for h in v.show if h.kind == "hand"}
    result = result_summary(v, names, None, for_game(game) if v.result else None)
    return {
        "version": game.version,
        "phase": v.phase,
        "phase_title": PHASE_TITLES.get(v.phase, ""),
        "turn_word": turn_word(v),
        "rules": game.rules_summary(),
        "match": {"game_no": v.game_no + 1, "scores": v.match_scores, "to_win": v.rules.games_to_win_match}
        if v.rules.match_games > 1 else None,
        "deal_no": v.deal_no + 1,
        "target": v.target,
        "tracks": [
            {"label": names[i], "front": v.scores[i], "back": v.back_pegs[i], "color": TRACK_COLORS[i]}
            for i in range(2)
        ],
        "seats": [
            {
                "name": names[i],
                "score": v.scores[i],
                "dealer": v.dealer == i,
                "to_play": v.turn == i,
                "held": range(v.hand_sizes[i]),
                "count": v.hand_sizes[i],
                "shown": shown.get(i, ()),
            }
            for i in range(2)
        ],
        "crib_owner": v.crib_owner,
        "crib_owner_name": names[v.crib_owner] if v.crib_owner is not None else "",
        "crib_size": v.crib_size,
        "crib": v.crib,  # () until the crib's count begins
        "crib_backs": range(v.crib_size),
        "starter": v.starter,
        "count": v.count,
        "series": [{"name": names[s], "card": c} for s, c in v.series],
        "previous_plays": [{"name": names[s], "card": c} for s, c in v.plays[: len(v.plays) - len(v.series)]],
        "show": [{"entry": h, "owner": names[h.seat], "mine": False} for h in v.show],
        "log": off_board(log_lines(table_of(game, names, None), v.log), result),
        "result": result,
        # A timed tournament: who is on the clock, for spectators too (only a player's page asks
        # the server to act when it runs out).
        "clock": clock_for_spectators(game, v, names),
    }


def clock_for_spectators(game: Game, v, names: list[str]) -> dict | None:
    clock = turn_clock(game, v, names)
    return None if clock is None else {k: clock[k] for k in ("who", "deadline", "remaining_s", "strikes")}


def watch_html(game: Game, *, oob: bool = False) -> SafeString:
    return mark_safe(jinja_template("play/watch.jinja").render({**watch_context(game), "oob": oob}))


def render_watch_oob(game_id: int) -> str | None:
    """The spectator's board for a websocket push, or None if the game cannot be watched."""
    game = watchable_game(game_id)
    return None if game is None else watch_html(game, oob=True)
