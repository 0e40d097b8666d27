"""The working copy ``apply`` mutates, and the scoring and game-end steps every handler shares.

Internal to the state machine (``game.py``, ``play.py``, ``show.py``); nothing here is public API.
"""

from __future__ import annotations

from games.engine.cards import Card
from games.engine.events import Event
from games.engine.rules import HouseRules
from games.engine.state import SKUNK_NAMES, GameResult, GameState

NUMBER_WORDS = ("no", "one", "two")


class Ended(Exception):
    """Raised inside apply when the target is reached: nothing after that instant happens."""


class Draft:
    """A mutable working copy of a GameState, frozen again at the end of apply.

    Cheaper than a chain of ``dataclasses.replace`` calls and keeps the handlers readable; the
    tuples inside are shared with the old state, never mutated.
    """

    def __init__(self, state: GameState) -> None:
        self.__dict__.update(state.__dict__)
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.log = self.log + (event,)

    def freeze(self) -> GameState:
        # Same as GameState(**fields) without the frozen __init__'s thirty object.__setattr__
        # calls, which cost more than most actions (as score_hand does in scoring.py).
        fields = dict(self.__dict__)
        del fields["events"]
        state = _new(GameState)
        state.__dict__.update(fields)
        return state


_new = object.__new__


def set_at(seq: tuple, index: int, value) -> tuple:
    return seq[:index] + (value,) + seq[index + 1:]


def left_of(state, seat: int) -> int:
    """The next seat clockwise (to the left)."""
    return (seat + 1) % len(state.scores)


def peg(d: Draft, seat: int, points: int, kind: str, text: str, cards: tuple[Card, ...] = ()) -> None:
    """Emit a scoring event and peg the points; reaching the target ends the game right here."""
    d.emit(Event(seat, kind, points, text, cards))
    if points:
        old = d.scores[seat]
        d.back_pegs = set_at(d.back_pegs, seat, old)
        d.scores = set_at(d.scores, seat, old + points)
        if old + points >= d.rules.target:
            finish_game(d, seat, "target")
            raise Ended


def skunk_level(rules: HouseRules, loser_score: int) -> int:
    if not rules.skunks:
        return 0
    triple, double = rules.triple_skunk_line, rules.double_skunk_line
    if triple is not None and loser_score < triple:
        return 3
    if double is not None and loser_score < double:
        return 2
    return 1 if loser_score < rules.skunk_line else 0


def finish_game(d: Draft, winner: int, reason: str) -> None:
    rules = d.rules
    # Two players: the one loser. (With more seats the best-placed loser decides the skunk.)
    loser_score = max(s for i, s in enumerate(d.scores) if i != winner)
    skunk = skunk_level(rules, loser_score) if reason == "target" else 0
    value = 1 << skunk
    d.results = d.results + (GameResult(d.game_no, winner, d.scores, loser_score, skunk, value, reason),)
    d.match_scores = set_at(d.match_scores, winner, d.match_scores[winner] + value)
    d.turn = None
    how = f" ({SKUNK_NAMES[skunk]})" if skunk else ""
    d.emit(Event(winner, "game_won", 0, f"Seat {winner} wins {d.scores[winner]}-{loser_score}{how}"))
    if reason == "resign" or d.match_scores[winner] >= rules.games_to_win_match:
        finish_match(d, winner)
    else:
        d.phase = "game_over"


def finish_match(d: Draft, winner: int) -> None:
    d.phase = "match_over"
    d.match_winner = winner
    d.turn = None
    if d.rules.match_games > 1:
        scores = "-".join(str(s) for s in d.match_scores)
        d.emit(Event(winner, "match_won", 0, f"Seat {winner} wins the match {scores}"))
