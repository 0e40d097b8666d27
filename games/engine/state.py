"""The full, private state of a game (or match) of cribbage, and its JSON-safe serialization.

A :class:`GameState` holds everything, including the deck and the secret, so only the server ever
sees one; seats get :func:`games.engine.view.view`. States are frozen: ``apply`` builds a new one.

Numbering: seats are ``0..n-1`` (clockwise = increasing, wrapping); ``game_no`` and ``deal_no``
count from 0, as the seeds in ``deck.py`` do (the UI adds 1).

Sides: points belong to a *side*. With two or three players each seat is its own side; with four,
partners sit opposite and share one score, so there are two sides: side 0 = seats 0 and 2, side 1 =
seats 1 and 3. ``side_of(seat) == seat % sides`` in every case. ``scores``, ``back_pegs``,
``match_scores``, ``GameResult.winner/scores/skunks`` and ``match_winner`` are per side (one copy of
each score: a board draws one peg track per side); everything about cards and turns is per seat.

>>> from games.engine.game import new_game
>>> from games.engine.rules import HouseRules
>>> state = new_game(HouseRules(), b"secret")
>>> state.phase, state.scores, state.to_act
('cut', (0, 0), (0, 1))
>>> GameState.from_dict(state.to_dict()) == state
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from games.engine.cards import Card, parse_card
from games.engine.events import Event
from games.engine.rules import HouseRules
from games.engine.scoring import ShowScore, score_hand

PHASES = ("cut", "discard", "starter", "play", "show", "game_over", "match_over")
SKUNK_NAMES = ("", "skunk", "double skunk", "triple skunk")

# ShowEntry.status values.
DUE = "due"            # manual counting: waiting for Count from the seat
MUGGINS = "muggins"    # counted; waiting for the opponent's CallMuggins or AcceptCount
DONE = "done"          # settled
SKIPPED = "skipped"    # the seat was in the peg-out zone when the show began: scores nothing


def hand_size(players: int) -> int:
    """Cards dealt to each seat: six with two players, five with three or four."""
    return 6 if players == 2 else 5


def discard_size(players: int) -> int:
    """Cards each seat lays away: two with two players, one with three or four."""
    return 2 if players == 2 else 1


def dealt_count(players: int) -> int:
    """How many cards come off the top of the deck before the starter.

    Two players: 12 (six each, one at a time, pone first), so the starter is ``deck[12]``.
    Three players: 15 dealt plus one straight to the crib (``deck[15]``), so the starter is
    ``deck[16]``. Four players: 20 dealt, the starter is ``deck[20]``.
    """
    return players * hand_size(players) + (1 if players == 3 else 0)


def side_count(players: int) -> int:
    """How many scores there are: one per player, except four players in two partnerships."""
    return 2 if players == 4 else players


def teams(players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: ``((0,), (1,))``, ``((0,), (1,), (2,))`` or ``((0, 2), (1, 3))``."""
    sides = side_count(players)
    return tuple(tuple(range(side, players, sides)) for side in range(sides))


@lru_cache(maxsize=1024)
def _score(cards: tuple[Card, ...], starter: Card, crib: bool) -> ShowScore:
    return score_hand(cards, starter, crib=crib)


@dataclass(frozen=True, slots=True)
class ShowEntry:
    """One hand or crib in the show. ``score`` is the true score (``None`` when skipped);
    ``claimed`` the manual count (``None`` with automatic counting); ``awarded`` what the owner
    got; ``muggins`` what the opponent took by calling muggins, or pegged as the penalty for an
    over-count (``claimed`` above ``score.total``)."""

    seat: int
    kind: str  # "hand" or "crib"
    cards: tuple[Card, ...]
    starter: Card
    status: str
    claimed: int | None = None
    awarded: int = 0
    muggins: int = 0
    score: ShowScore | None = None

    def to_dict(self) -> dict:
        return {
            "seat": self.seat, "kind": self.kind, "cards": [str(c) for c in self.cards],
            "starter": str(self.starter), "status": self.status, "claimed": self.claimed,
            "awarded": self.awarded, "muggins": self.muggins,
        }

    @classmethod
    def from_dict(cls, data: dict) -> ShowEntry:
        cards = tuple(parse_card(c) for c in data["cards"])
        starter = parse_card(data["starter"])
        # The score is a pure function of the cards, so it is recomputed rather than stored; a state
        # is read on every move, and its shows (this deal's and the last) stay the same for a deal.
        score = None if data["status"] == SKIPPED else _score(cards, starter, data["kind"] == "crib")
        return cls(
            data["seat"], data["kind"], cards, starter, data["status"], data["claimed"],
            data["awarded"], data["muggins"], score,
        )


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, by side (see the module docstring; a side is a seat except with four).

    ``skunks``: each side's own skunk level (0 none, 1 skunk, 2 double, 3 triple; 0 for the winner,
    always 0 with skunks off or after a resignation). ``skunk`` is the deepest of them and
    ``loser_score`` the lowest losing score, the one it was judged on (with two sides: the loser's);
    ``value``: match points the winner earned, ``1 << skunk`` (1, 2, 4 or 8)."""

    game_no: int
    winner: int
    scores: tuple[int, ...]
    loser_score: int
    skunk: int
    value: int
    reason: str  # "target" or "resign"
    skunks: tuple[int, ...] = ()

    @property
    def skunk_name(self) -> str:
        """``""``, ``"skunk"``, ``"double skunk"`` or ``"triple skunk"``."""
        return SKUNK_NAMES[self.skunk]

    def to_dict(self) -> dict:
        return {
            "game_no": self.game_no, "winner": self.winner, "scores": list(self.scores),
            "loser_score": self.loser_score, "skunk": self.skunk, "value": self.value, "reason": self.reason,
            "skunks": list(self.skunks),
        }

    @classmethod
    def from_dict(cls, data: dict) -> GameResult:
        winner, scores, skunk = data["winner"], tuple(data["scores"]), data["skunk"]
        skunks = data.get("skunks")
        if skunks is None:  # stored before skunks were listed per side (two players only)
            skunks = tuple(0 if side == winner else skunk for side in range(len(scores)))
        return cls(
            data["game_no"], winner, scores, data["loser_score"],
            skunk, data["value"], data["reason"], tuple(skunks),
        )


def _seats(n: int, value):
    return (value,) * n


@dataclass(frozen=True)
class GameState:
    """Everything about a match in progress. Private to the server: it holds the deck and secret.

    Card locations during a deal (all 52 accounted for): ``hands`` (cards still held), ``plays``
    (cards laid in the play), ``crib``, ``starter`` (once turned) and :attr:`deck_remainder`.
    ``kept`` is each seat's four after the discard (for the show) and ``discards`` what each laid
    away, so :attr:`hands_dealt` rebuilds the deal for replays.
    """

    rules: HouseRules
    secret: bytes
    phase: str = "cut"
    game_no: int = 0
    deal_no: int = 0
    dealer: int | None = None
    # Per side (a seat, or a partnership with four players): see the module docstring.
    scores: tuple[int, ...] = (0, 0)
    back_pegs: tuple[int, ...] = (0, 0)  # each side's score before its latest scoring (the back peg)
    match_scores: tuple[int, ...] = (0, 0)
    results: tuple[GameResult, ...] = ()  # finished games of this match, in order
    match_winner: int | None = None  # a side
    # Cut for deal (first game only). cut_cards: the last revealed attempt (a tie stays on show).
    cut_attempt: int = 0
    cut_positions: tuple[int | None, ...] = (None, None)
    cut_cards: tuple[Card | None, ...] = (None, None)
    # The current deal.
    deck: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ((), ())
    kept: tuple[tuple[Card, ...], ...] = ((), ())
    discards: tuple[tuple[Card, ...], ...] = ((), ())
    crib: tuple[Card, ...] = ()
    starter: Card | None = None
    # turn: the one seat to act in the play and the manual show (None when several or none may act).
    turn: int | None = None
    count: int = 0
    series: tuple[tuple[int, Card], ...] = ()  # cards laid since the count was last reset
    plays: tuple[tuple[int, Card], ...] = ()  # every card laid this deal
    last_player: int | None = None  # who laid the last card of the current series
    gone: tuple[bool, ...] = (False, False)  # who has said go in the current series
    show: tuple[ShowEntry, ...] = ()
    show_zoned: tuple[bool, ...] = (False, False)  # in the peg-out zone when the show began
    acks: tuple[bool, ...] = (False, False)  # NextDeal received, per seat
    last_show: tuple[ShowEntry, ...] = ()  # the previous deal's show, kept until the next one
    log: tuple[Event, ...] = field(default=(), repr=False)  # this deal's events

    # --- construction ---------------------------------------------------------------------------

    @classmethod
    def initial(cls, rules: HouseRules, secret: bytes) -> GameState:
        """A new match waiting for the cut for deal (use :func:`games.engine.game.new_game`)."""
        n = rules.players
        sides = side_count(n)
        empty: tuple[tuple[Card, ...], ...] = _seats(n, ())
        return cls(
            rules=rules, secret=bytes(secret), scores=_seats(sides, 0), back_pegs=_seats(sides, 0),
            match_scores=_seats(sides, 0), cut_positions=_seats(n, None), cut_cards=_seats(n, None),
            hands=empty, kept=empty, discards=empty, gone=_seats(n, False),
            show_zoned=_seats(n, False), acks=_seats(n, False),
        )

    # --- derived --------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many seats (2, 3 or 4)."""
        return self.rules.players

    @property
    def sides(self) -> int:
        """How many scores: the players, or two partnerships with four players."""
        return len(self.scores)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side (``((0, 2), (1, 3))`` with four players)."""
        return teams(self.rules.players)

    def side_of(self, seat: int) -> int:
        """The side (index into ``scores``) ``seat`` scores for."""
        return seat % len(self.scores)

    @property
    def pone(self) -> int | None:
        """The seat left of the dealer: leads the play and counts first."""
        return None if self.dealer is None else (self.dealer + 1) % self.rules.players

    @property
    def cutter(self) -> int | None:
        """The seat right of the dealer, who cuts the starter (with two players, the pone). The
        starter is still the fixed deck position :attr:`starter_index` (the deck is already
        shuffled from the secret), so the cut decides when it turns, not which card it is."""
        return None if self.dealer is None else (self.dealer - 1) % self.rules.players

    @property
    def finished(self) -> bool:
        """True once the match is over (nothing more can happen)."""
        return self.phase == "match_over"

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (each must, except in ``game_over`` where any one will do)."""
        n = self.rules.players
        phase = self.phase
        if phase == "cut":
            return tuple(s for s in range(n) if self.cut_positions[s] is None)
        if phase == "discard":
            return tuple(s for s in range(n) if not self.discards[s])
        if phase in ("starter", "play", "show") and self.turn is not None:
            return (self.turn,)
        if phase == "show":
            return tuple(s for s in range(n) if not self.acks[s])
        if phase == "game_over":
            return tuple(range(n))
        return ()

    @property
    def starter_index(self) -> int:
        return dealt_count(self.rules.players)

    @property
    def deck_remainder(self) -> tuple[Card, ...]:
        """The undealt cards of this deal's deck (without the starter once it is turned)."""
        if not self.deck:
            return ()
        rest = self.deck[self.starter_index:]
        return rest[1:] if self.starter is not None else rest

    @property
    def hands_dealt(self) -> tuple[tuple[Card, ...], ...]:
        """The cards dealt to each seat this deal, whatever has happened since (for replays)."""
        return tuple(
            tuple(sorted(self.kept[s] + self.discards[s])) if self.discards[s] else self.hands[s]
            for s in range(self.rules.players)
        )

    # --- serialization --------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """JSON-safe dict (cards as ``"5H"``, the secret in hex); :meth:`from_dict` inverts it."""

        def cards(seq):
            return [str(c) for c in seq]

        def opt(card):
            return None if card is None else str(card)

        return {
            "rules": self.rules.to_dict(),
            "secret": self.secret.hex(),
            "phase": self.phase,
            "game_no": self.game_no,
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "back_pegs": list(self.back_pegs),
            "match_scores": list(self.match_scores),
            "results": [r.to_dict() for r in self.results],
            "match_winner": self.match_winner,
            "cut_attempt": self.cut_attempt,
            "cut_positions": list(self.cut_positions),
            "cut_cards": [opt(c) for c in self.cut_cards],
            "deck": cards(self.deck),
            "hands": [cards(h) for h in self.hands],
            "kept": [cards(h) for h in self.kept],
            "discards": [cards(h) for h in self.discards],
            "crib": cards(self.crib),
            "starter": opt(self.starter),
            "turn": self.turn,
            "count": self.count,
            "series": [[s, str(c)] for s, c in self.series],
            "plays": [[s, str(c)] for s, c in self.plays],
            "last_player": self.last_player,
            "gone": list(self.gone),
            "show": [e.to_dict() for e in self.show],
            "show_zoned": list(self.show_zoned),
            "acks": list(self.acks),
            "last_show": [e.to_dict() for e in self.last_show],
            "log": [e.to_dict() for e in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        """Rebuild a state from :meth:`to_dict` output: ``GameState.from_dict(s.to_dict()) == s``."""

        def cards(seq):
            return tuple(parse_card(c) for c in seq)

        def opt(card):
            return None if card is None else parse_card(card)

        return cls(
            rules=HouseRules.from_dict(data["rules"]),
            secret=bytes.fromhex(data["secret"]),
            phase=data["phase"],
            game_no=data["game_no"],
            deal_no=data["deal_no"],
            dealer=data["dealer"],
            scores=tuple(data["scores"]),
            back_pegs=tuple(data["back_pegs"]),
            match_scores=tuple(data["match_scores"]),
            results=tuple(GameResult.from_dict(r) for r in data["results"]),
            match_winner=data["match_winner"],
            cut_attempt=data["cut_attempt"],
            cut_positions=tuple(data["cut_positions"]),
            cut_cards=tuple(opt(c) for c in data["cut_cards"]),
            deck=cards(data["deck"]),
            hands=tuple(cards(h) for h in data["hands"]),
            kept=tuple(cards(h) for h in data["kept"]),
            discards=tuple(cards(h) for h in data["discards"]),
            crib=cards(data["crib"]),
            starter=opt(data["starter"]),
            turn=data["turn"],
            count=data["count"],
            series=tuple((s, parse_card(c)) for s, c in data["series"]),
            plays=tuple((s, parse_card(c)) for s, c in data["plays"]),
            last_player=data["last_player"],
            gone=tuple(data["gone"]),
            show=tuple(ShowEntry.from_dict(e) for e in data["show"]),
            show_zoned=tuple(data["show_zoned"]),
            acks=tuple(data["acks"]),
            last_show=tuple(ShowEntry.from_dict(e) for e in data.get("last_show", ())),
            log=tuple(Event.from_dict(e) for e in data["log"]),
        )
