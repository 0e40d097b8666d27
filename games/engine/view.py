"""What one seat may know: :func:`view` turns the private :class:`GameState` into a :class:`SeatView`.

Templates and computer players only ever get a SeatView, so neither can see the deck, the secret,
another seat's unplayed cards (a partner's included) or the crib before it is counted. Visible
cards are: the seat's own hand, kept four and discards; the cut cards once revealed; the starter
once turned; every card laid in the play; each hand or crib of the show once its count begins (it
is laid face up).

Scores are per side (``scores[view.side_of(seat)]``); with two or three players a side is a seat,
with four ``teams == ((0, 2), (1, 3))``. See ``state.py``.

>>> from games.engine.game import new_game, apply, CutForDeal
>>> from games.engine.rules import HouseRules
>>> state = new_game(HouseRules(), b"view doc")
>>> for seat, pos in ((0, 3), (1, 30)):
...     state, _ = apply(state, CutForDeal(seat, pos))
>>> v = view(state, 0)
>>> v.phase, len(v.hand), v.hand_sizes, v.turn, v.starter
('discard', 6, (6, 6), (0, 1), None)
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.actions import Action, Go, Play, action_to_dict
from games.engine.cards import Card
from games.engine.events import Event
from games.engine.game import legal_actions
from games.engine.rules import HouseRules
from games.engine.scoring import ScoreGroup
from games.engine.state import DONE, GameResult, GameState


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand or crib in the show, as every seat sees it.

    ``status``: ``"due"`` (waiting for the owner's manual count), ``"muggins"`` (counted, waiting
    for the opponent to call muggins or accept), ``"done"``, ``"skipped"`` (peg-out zone).
    ``total`` and ``groups`` (the breakdown: which cards make each fifteen, pair, run, flush, nobs)
    are given only once the count is settled (``"done"``), so they never help a manual count.
    """

    seat: int
    kind: str  # "hand" or "crib"
    cards: tuple[Card, ...]
    starter: Card
    status: str
    claimed: int | None
    awarded: int
    muggins: int
    total: int | None
    groups: tuple[ScoreGroup, ...]

    def to_dict(self) -> dict:
        return {
            "seat": self.seat, "kind": self.kind, "cards": [str(c) for c in self.cards],
            "starter": str(self.starter), "status": self.status, "claimed": self.claimed,
            "awarded": self.awarded, "muggins": self.muggins, "total": self.total,
            "groups": [
                {"kind": g.kind, "cards": [str(c) for c in g.cards], "points": g.points, "text": g.text}
                for g in self.groups
            ],
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """What the table shows everyone (a spectator's view): the scores and pegs, the cut, the
    starter, every card laid in the play, each hand and the crib once its count begins, how many
    cards each seat holds, the deal's log and the results. No seat's unplayed cards.

    ``turn`` is the one seat to act (cutting the starter, play, manual count, muggins), a tuple of
    the seats still to act (cut, discard, the NextDeal acknowledgements, ``game_over``), or None
    (``match_over``).

    ``scores``, ``back_pegs``, ``match_scores``, ``match_winner`` and the results' ``winner`` are
    per side: ``side_of(seat)`` indexes them; ``teams`` lists the seats of each side. Everything
    else that is per seat (``hand_sizes``, ``gone``, ``acks``...) is indexed by seat.
    """

    phase: str
    players: int
    rules: HouseRules
    target: int
    game_no: int  # from 0
    deal_no: int  # from 0 within the game
    dealer: int | None
    pone: int | None  # the seat left of the dealer: leads and counts first
    cutter: int | None  # the seat right of the dealer: cuts the starter (two players: the pone)
    turn: int | tuple[int, ...] | None
    sides: int  # how many scores: the players, or 2 partnerships with four players
    teams: tuple[tuple[int, ...], ...]  # the seats of each side
    scores: tuple[int, ...]  # per side
    back_pegs: tuple[int, ...]  # each side's score before its latest points (the back peg)
    hand_sizes: tuple[int, ...]  # cards each seat holds
    discarded: tuple[bool, ...]  # which seats have laid away
    crib_owner: int | None
    crib_size: int
    crib: tuple[Card, ...]  # () until the crib's count begins
    starter: Card | None
    count: int
    series: tuple[tuple[int, Card], ...]  # (seat, card) since the count was last reset
    plays: tuple[tuple[int, Card], ...]  # (seat, card) every card laid this deal
    gone: tuple[bool, ...]  # who has said go in this series
    cut_attempt: int
    cut_positions: tuple[int | None, ...]
    cut_cards: tuple[Card | None, ...]  # the last revealed cut (None: not revealed)
    show: tuple[ShownHand, ...]
    last_show: tuple[ShownHand, ...]  # the previous deal's show (empty in a game's first deal)
    acks: tuple[bool, ...]  # who has asked for the next deal
    log: tuple[Event, ...]  # this deal's events
    result: GameResult | None  # the current game's result once it is over
    results: tuple[GameResult, ...]  # every finished game of the match
    match_scores: tuple[int, ...]  # per side
    match_winner: int | None  # a side

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for (an index into ``scores``)."""
        return seat % self.sides

    @property
    def skunk_line(self) -> int:
        return self.rules.skunk_line

    @property
    def double_skunk_line(self) -> int | None:
        return self.rules.double_skunk_line

    def to_dict(self) -> dict:
        """JSON-safe form (cards as ``"5H"``)."""
        return {
            "phase": self.phase, "players": self.players, "rules": self.rules.to_dict(),
            "target": self.target, "game_no": self.game_no, "deal_no": self.deal_no,
            "dealer": self.dealer, "pone": self.pone, "cutter": self.cutter,
            "turn": list(self.turn) if isinstance(self.turn, tuple) else self.turn,
            "sides": self.sides, "teams": [list(t) for t in self.teams],
            "scores": list(self.scores), "back_pegs": list(self.back_pegs),
            "hand_sizes": list(self.hand_sizes), "discarded": list(self.discarded),
            "crib_owner": self.crib_owner, "crib_size": self.crib_size, "crib": _cards(self.crib),
            "starter": _card(self.starter), "count": self.count,
            "series": [[s, str(c)] for s, c in self.series],
            "plays": [[s, str(c)] for s, c in self.plays],
            "gone": list(self.gone), "cut_attempt": self.cut_attempt,
            "cut_positions": list(self.cut_positions), "cut_cards": [_card(c) for c in self.cut_cards],
            "show": [h.to_dict() for h in self.show], "acks": list(self.acks),
            "last_show": [h.to_dict() for h in self.last_show],
            "log": [e.to_dict() for e in self.log],
            "result": None if self.result is None else self.result.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "match_scores": list(self.match_scores), "match_winner": self.match_winner,
        }


@dataclass(frozen=True, slots=True)
class SeatView(TableView):
    """Everything a board needs for one seat, and nothing that seat may not know: the table
    (:class:`TableView`) and the seat's own cards and choices. ``side`` is this seat's side."""

    seat: int
    side: int
    partner: int | None  # the seat opposite with four players
    hand: tuple[Card, ...]  # cards still held
    kept: tuple[Card, ...]  # the four kept after the discard ((): before)
    discards: tuple[Card, ...]  # the cards this seat laid away
    legal_actions: tuple[Action, ...]
    can_go: bool
    playable: tuple[Card, ...]  # own cards that fit under 31 when it is this seat's turn to play

    @property
    def my_score(self) -> int:
        return self.scores[self.side]

    @property
    def my_turn(self) -> bool:
        turn = self.turn
        return turn == self.seat if isinstance(turn, int) else bool(turn) and self.seat in turn

    def to_dict(self) -> dict:
        """JSON-safe form (cards as ``"5H"``), e.g. for a computer player in another process."""
        return {
            **TableView.to_dict(self), "seat": self.seat, "side": self.side, "partner": self.partner,
            "hand": _cards(self.hand), "kept": _cards(self.kept), "discards": _cards(self.discards),
            "legal_actions": [action_to_dict(a) for a in self.legal_actions],
            "can_go": self.can_go, "playable": _cards(self.playable),
        }


def _cards(seq) -> list[str]:
    return [str(c) for c in seq]


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _turn(state: GameState) -> int | tuple[int, ...] | None:
    if state.phase in ("starter", "play", "show") and state.turn is not None:
        return state.turn
    if state.phase == "match_over":
        return None
    return state.to_act


def _shown(show) -> tuple[ShownHand, ...]:
    return tuple(
        ShownHand(
            e.seat, e.kind, e.cards, e.starter, e.status, e.claimed, e.awarded, e.muggins,
            e.score.total if e.status == DONE else None,
            e.score.groups if e.status == DONE else (),
        )
        for e in show
    )


def _table(state: GameState) -> dict:
    """The fields of a :class:`TableView` of ``state``."""
    result = None
    over = state.phase in ("game_over", "match_over")
    if over and state.results and state.results[-1].game_no == state.game_no:
        result = state.results[-1]
    return {
        "phase": state.phase,
        "players": state.players,
        "rules": state.rules,
        "target": state.rules.target,
        "game_no": state.game_no,
        "deal_no": state.deal_no,
        "dealer": state.dealer,
        "pone": state.pone,
        "cutter": state.cutter,
        "turn": _turn(state),
        "sides": state.sides,
        "teams": state.teams,
        "scores": state.scores,
        "back_pegs": state.back_pegs,
        "hand_sizes": tuple(len(h) for h in state.hands),
        "discarded": tuple(bool(d) for d in state.discards),
        "crib_owner": state.dealer if state.deck else None,
        "crib_size": len(state.crib),
        "crib": next((e.cards for e in state.show if e.kind == "crib"), ()),
        "starter": state.starter,
        "count": state.count,
        "series": state.series,
        "plays": state.plays,
        "gone": state.gone,
        "cut_attempt": state.cut_attempt,
        "cut_positions": state.cut_positions,
        "cut_cards": state.cut_cards,
        "show": _shown(state.show),
        "last_show": _shown(state.last_show),
        "acks": state.acks,
        "log": state.log,
        "result": result,
        "results": state.results,
        "match_scores": state.match_scores,
        "match_winner": state.match_winner,
    }


def public_view(state: GameState) -> TableView:
    """What the table shows everyone, a spectator included: no seat's unplayed cards.

    >>> from games.engine.game import new_game, apply, CutForDeal
    >>> from games.engine.rules import HouseRules
    >>> state = new_game(HouseRules(), b"view doc")
    >>> for seat, pos in ((0, 3), (1, 30)):
    ...     state, _ = apply(state, CutForDeal(seat, pos))
    >>> table = public_view(state)
    >>> table.phase, table.hand_sizes, table.crib, hasattr(table, "hand")
    ('discard', (6, 6), (), False)
    """
    return TableView(**_table(state))


def view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may know of ``state``; see the module docstring for which cards are visible."""
    n = state.players
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat!r} at this table")
    legal = legal_actions(state, seat)
    my_play_turn = state.phase == "play" and state.turn == seat
    return SeatView(
        **_table(state),
        seat=seat,
        side=state.side_of(seat),
        partner=(seat + 2) % 4 if n == 4 else None,
        hand=state.hands[seat],
        kept=state.kept[seat],
        discards=state.discards[seat],
        legal_actions=legal,
        can_go=my_play_turn and any(isinstance(a, Go) for a in legal),
        playable=tuple(a.card for a in legal if isinstance(a, Play)) if my_play_turn else (),
    )


__all__ = ["SeatView", "ShownHand", "TableView", "public_view", "view"]
