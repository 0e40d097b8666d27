"""The pass screen of a game passed round one device (``games.play.pass_play``): drawn in the
board's place whenever the device must change hands."""

from __future__ import annotations

from django.conf import settings

from games.play.board.links import game_url
from games.play.board.table import PHASE_TITLES
from games.play.models import Game
from games.play.narration import LogLine


def pass_context(game: Game, to: int, error: str = "") -> dict:
    """The pass screen: who gets the device, what they are about to do and the score, nothing of
    any hand. The computers still take their turns behind it."""
    from games.play.services import computer_to_act, load_state

    state = load_state(game)
    names = game.seat_names()
    sides = 3 if game.players == 3 else 2
    return {
        "game": game,
        "pass_to": to,
        "pass_name": names[to],
        "phase_title": PHASE_TITLES.get(state.phase, ""),
        "scores": [{"name": " & ".join(names[s] for s in range(game.players) if s % sides == side),
                    "score": min(state.scores[side], game.target)} for side in range(sides)],
        "dealer_name": names[state.dealer] if state.dealer is not None else "",
        "show_url": game_url("show_hand", game.pk),
        "computer_pending": computer_to_act(game),
        "computer_url": game_url("computer_step", game.pk),
        "computer_delay_ms": int(settings.COMPUTER_DELAY_SECONDS * 1000),
        "tab_title": f"Pass to {names[to]}",
        # Said in the page's status line, as a move's calls are: a screen reader hears who is next.
        "calls": [LogLine(who="", text=f"Pass the device to {names[to]}.", points=0, kind="pass", cards=(),
                          mine=False)],
        "online": False,
        "tournament": None,
        "error": error,
    }
