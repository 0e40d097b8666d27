"""Pass and play: one device passed round a table of named players (and computers).

The device shows one seat's hand at a time. When a named seat other than the one shown must act,
or a new deal begins, the board gives way to a pass screen that holds nothing of any hand; the
player taps it to be shown their own (``services.pass_play.game_show_hand``). Which seat is shown
lives on the game (``Game.pass_play``), never in the request, so no link or form field can show
a hand without its pass screen.
"""

from __future__ import annotations

from games.engine.state import GameState
from games.play.models import Game

# Said for the whole table by the one holding the device: nothing in them is anyone's secret.
TABLE_ACTIONS = ("next_deal", "next_game")


def people(game: Game) -> list[int]:
    """The named seats, the people sharing the device, in seat order."""
    return [s.index for s in game.seat_list() if not s.is_computer]


def due(state: GameState, seats: list[int]) -> list[int]:
    """Which of ``seats`` the game waits on now."""
    turn = state.to_act
    return [s for s in seats if s in turn]


def shown_seat(game: Game, state: GameState) -> int | None:
    """The seat whose hand the device may show now, or None when the pass screen is up."""
    if game.pass_play is None:
        return None
    shown = game.pass_play.get("shown")
    if game.status != Game.Status.ACTIVE:
        # The game is over: its board holds no secret worth a pass screen.
        return shown if shown in people(game) else people(game)[0]
    if shown is None or game.pass_play.get("deal") != [state.game_no, state.deal_no]:
        return None  # a new deal is dealt face down: the device goes round again
    waiting = due(state, people(game))
    return shown if not waiting or shown in waiting else None


def pass_to(game: Game, state: GameState) -> int | None:
    """The seat the device must be passed to, or None while a seat is shown."""
    if game.pass_play is None or shown_seat(game, state) is not None:
        return None
    waiting = due(state, people(game))
    if waiting:
        return waiting[0]
    last = game.pass_play.get("last")
    return last if last in people(game) else people(game)[0]

