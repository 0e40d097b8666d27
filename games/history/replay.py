"""Replaying a game's Move log through the engine: the log is the truth, every state follows from it.

``new_game(rules, secret)`` and the logged actions in order rebuild every state the live game went
through; each logged Move also holds the events the live game produced, and the replay checks it
produces the same ones, so a log that does not replay is noticed rather than shown wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games.engine.actions import Action, action_from_dict
from games.engine.errors import IllegalAction
from games.engine.events import Event, upgrade
from games.engine.game import GameState, apply, new_game
from games.play.models import Game, Move


class ReplayError(Exception):
    """The log does not replay: an action is refused or produces other events than were logged."""


@dataclass(frozen=True)
class Step:
    """Step ``number`` (1-based): ``move`` took the game from ``before`` to ``after``."""

    number: int
    move: Move
    action: Action
    events: tuple[Event, ...]
    before: GameState
    after: GameState


def initial_state(game: Game) -> GameState:
    """The state before the first move (the cut for deal)."""
    return new_game(game.house_rules, bytes.fromhex(game.secret))


def moves_of(game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game).order_by("seq"))


def replay_steps(game: Game, moves: Iterable[Move] | None = None, *, check: bool = True) -> Iterator[Step]:
    """Every step of the game, in order. With ``check``, each step's events must equal the logged ones."""
    state = initial_state(game)
    for number, move in enumerate(moves_of(game) if moves is None else moves, start=1):
        action = action_from_dict(move.action)
        try:
            after, events = apply(state, action)
        except IllegalAction as exc:
            raise ReplayError(f"game {game.pk} move {move.seq}: {exc}") from exc
        if check and [e.to_dict() for e in events] != [upgrade(e) for e in move.events]:
            raise ReplayError(f"game {game.pk} move {move.seq}: the events differ from the log")
        yield Step(number, move, action, events, state, after)
        state = after


def final_state(game: Game) -> GameState:
    """The state after the last logged move."""
    state = initial_state(game)
    for step in replay_steps(game):
        state = step.after
    return state


def state_at(game: Game, number: int, moves: list[Move] | None = None) -> tuple[GameState, Step | None]:
    """The state after step ``number`` (0: before any move) and that step (None for 0)."""
    moves = moves_of(game) if moves is None else moves
    if not 0 <= number <= len(moves):
        raise ValueError(f"step {number} is outside 0..{len(moves)}")
    state, last = initial_state(game), None
    for step in replay_steps(game, moves[:number]):
        state, last = step.after, step
    return state, last
