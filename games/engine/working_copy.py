"""The working copy ``apply`` mutates, and the scoring and game-end steps every handler shares.

Internal to the state machine (``game.py``, ``pegging.py``, ``show.py``); nothing here is public API.
"""

from __future__ import annotations

from games.engine.cards import Card
from games.engine.events import Event
from games.engine.rules import HouseRules
from games.engine.state import GameResult, GameState

NUMBER_WORDS = ("no", "one", "two")


def cards_word(k: int) -> str:
    """``"one card"``, ``"two cards"``."""
    return f"{NUMBER_WORDS[k]} card{'s' if k != 1 else ''}"


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

    # Class-level helpers (not in __dict__, so freeze() never copies them into the state).
    @property
    def players(self) -> int:
        return self.rules.players

    def side_of(self, seat: int) -> int:
        return seat % len(self.scores)

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


def left_of(d: Draft, seat: int) -> int:
    """The next seat clockwise (to the left)."""
    return (seat + 1) % d.rules.players


def next_opponent(d: Draft, seat: int) -> int:
    """The first seat clockwise from ``seat`` on another side: the seat on its left, whatever the
    number of players (partners sit opposite), but said the long way so it stays true."""
    n = d.rules.players
    return next(s for s in ((seat + k) % n for k in range(1, n)) if d.side_of(s) != d.side_of(seat))


def peg(d: Draft, seat: int, points: int, kind: str, cards: tuple[Card, ...] = (), *,
        detail: str = "") -> None:
    """Emit a scoring event for ``seat`` and peg the points on its side's score; reaching the
    target ends the game right here."""
    d.emit(Event(seat, kind, points, cards, detail=detail))
    if points:
        side = seat % len(d.scores)
        old = d.scores[side]
        d.back_pegs = set_at(d.back_pegs, side, old)
        d.scores = set_at(d.scores, side, old + points)
        if old + points >= d.rules.target:
            finish_game(d, side, "target")
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
    """``winner`` (a side) has won the game. Every other side has lost; each is judged for a skunk
    on its own score (``GameResult.skunks``) and the winner's match value follows the deepest."""
    rules = d.rules
    scores = d.scores
    sides = len(scores)
    losers = [(winner + k) % sides for k in range(1, sides)]  # clockwise from the winner
    skunks = tuple(
        skunk_level(rules, scores[side]) if side != winner and reason == "target" else 0
        for side in range(sides)
    )
    skunk = max(skunks)
    loser_score = min(scores[side] for side in losers)
    value = 1 << skunk
    d.results = d.results + (
        GameResult(d.game_no, winner, scores, loser_score, skunk, value, reason, skunks),)
    d.match_scores = set_at(d.match_scores, winner, d.match_scores[winner] + value)
    d.turn = None
    d.emit(Event(winner, "game_won", scores=scores, skunks=skunks, detail=reason))
    if reason == "resign" or d.match_scores[winner] >= rules.games_to_win_match:
        finish_match(d, winner)
    else:
        d.phase = "game_over"


def finish_match(d: Draft, winner: int) -> None:
    d.phase = "match_over"
    d.match_winner = winner
    d.turn = None
    if d.rules.match_games > 1:
        d.emit(Event(winner, "match_won", scores=d.match_scores))
