"""The standings of a qualifying: its table, best first, with the ACC's order and tie-breaks.

The table is ordered by a list of criteria the director chooses (``CRITERIA``); the default,
``ACC_ORDER``, is qualifying points, then match wins, then games won, then point spread. Players
level on every criterion share a rank and are listed by ``order`` (their seed, say).

>>> results = [MatchResult("a", "b", "a", 1, 0, 2, 0, 12), MatchResult("c", "d", "c", 1, 0, 2, 0, 12)]
>>> [(s.player, s.rank) for s in standings("abcd", results)]
[('a', 1), ('c', 1), ('b', 3), ('d', 3)]
>>> [(s.player, s.rank) for s in standings("abcd", results, criteria=ACC_ORDER + ("cut",),
...                                         cut={"a": "9", "c": "4", "b": "K", "d": "K"})]
[('c', 1), ('a', 2), ('b', 3), ('d', 3)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .scoring import Scoring


@dataclass
class Standing:
    """One player's line in the standings. ``order`` lists players level on every criterion (a
    seed, say). ``played`` counts matches played; a bye is counted in ``byes`` only."""

    player: Hashable
    order: int = 0
    played: int = 0
    match_wins: int = 0
    match_losses: int = 0
    games_won: int = 0
    games_lost: int = 0
    points: int = 0
    spread: int = 0
    withdrawn: bool = False
    rank: int = 0
    byes: int = 0

    def sort_key(self) -> tuple:
        """The place in the ACC order (``ACC_ORDER``, then ``order``); other orders: ``standings``.

        >>> Standing("a", points=4, spread=9).sort_key() < Standing("b", points=4, spread=2).sort_key()
        True
        """
        return (self.withdrawn, -self.points, -self.match_wins, -self.games_won, -self.spread, self.order)

    def tie_key(self) -> tuple:
        """Equal for two players the ACC order cannot tell apart.

        >>> Standing("a", order=1, points=2).tie_key() == Standing("b", order=2, points=2).tie_key()
        True
        """
        return (self.withdrawn, self.points, self.match_wins, self.games_won, self.spread)


@dataclass(frozen=True)
class MatchResult:
    """A decided match between ``a`` and ``b`` (``spread`` from ``a``'s side)."""

    a: Hashable
    b: Hashable
    winner: Hashable | None
    games_a: int = 0
    games_b: int = 0
    points_a: int = 0
    points_b: int = 0
    spread: int = 0


@dataclass(frozen=True)
class ByeCredit:
    """What one bye adds to a player's line: by default a plain win (the ACC's 2 points, one game
    and the match won) with no spread. ``spread="average"`` gives instead the player's average
    spread over the matches they played, rounded to the nearest point (halves away from zero).

    >>> ByeCredit.win(Scoring(win=3))
    ByeCredit(points=3, games=1, match_win=True, spread=0)
    """

    points: int = 2
    games: int = 1
    match_win: bool = True
    spread: int | Literal["average"] = 0

    @classmethod
    def win(cls, scoring: Scoring, spread: int | Literal["average"] = 0) -> ByeCredit:
        """A bye worth a plain win under ``scoring``.

        >>> ByeCredit.win(Scoring(), spread="average").spread
        'average'
        """
        return cls(points=scoring.win, spread=spread)

    def spread_for(self, spread: int, played: int) -> int:
        """The spread a bye adds for a player with ``spread`` over ``played`` matches.

        >>> average = ByeCredit(spread="average")
        >>> average.spread_for(50, 4), average.spread_for(-50, 4), average.spread_for(7, 0)
        (13, -13, 0)
        """
        if self.spread != "average":
            return self.spread
        if played <= 0:
            return 0
        nearest = (2 * abs(spread) + played) // (2 * played)
        return nearest if spread >= 0 else -nearest


# The criteria a director can order the table by. "head_to_head" separates exactly two players
# still level who met, by the matches between them; "cut" by a cut of the cards the director
# records for tied players (lower card first unless ``cut_wins="high"``).
CRITERIA = ("points", "match_wins", "games_won", "spread", "head_to_head", "cut")
ACC_ORDER = ("points", "match_wins", "games_won", "spread")
DEFAULT_BYE = ByeCredit()

_RANKS = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}


def card_rank(card: int | str) -> int:
    """A cut card's rank, ace low (1) to king (13): a number, a rank or a card in the engine's
    notation (``"TD"`` is the ten of diamonds).

    >>> [card_rank(c) for c in (7, "A", "10", "Q", "TD", "kh")]
    [7, 1, 10, 12, 10, 13]
    """
    if isinstance(card, int):
        return card
    text = card.strip().upper()
    if text not in _RANKS and len(text) >= 2 and text[-1] in "SHDC":
        text = text[:-1]  # a whole card: its suit does not rank it
    if text not in _RANKS:
        raise ValueError(f"{card!r} is not a card rank (A, 2-10 or T, J, Q, K)")
    return _RANKS[text]


def standings(
    players: Iterable[Hashable],
    results: Iterable[MatchResult],
    *,
    order: dict | None = None,
    withdrawn: Iterable[Hashable] = (),
    byes: Iterable[Hashable] = (),
    bye: ByeCredit = DEFAULT_BYE,
    criteria: Sequence[str] = ACC_ORDER,
    cut: Mapping[Hashable, int | str] | None = None,
    cut_wins: Literal["low", "high"] = "low",
) -> list[Standing]:
    """The table, best first, ordered by ``criteria`` (default: qualifying points, then match
    wins, then games won, then point spread); players still level share a rank (and are listed
    by ``order``). Withdrawn players go to the bottom, ordered the same way among themselves.

    ``byes`` lists a player once for each bye they had; each adds ``bye`` to their line.
    ``criteria`` is any order of distinct names from ``CRITERIA``: "head_to_head" applies only to
    exactly two players level at that point who met, and ranks first the one who won more of the
    matches between them; "cut" ranks by ``cut`` (player to card, see ``card_rank``), the lower
    card first (``cut_wins="high"``: the higher), a player with no card recorded after those with
    one, and equal cards level.

    >>> table = standings(["a", "b"], [MatchResult("a", "b", "a", 1, 0, 2, 0, 30)])
    >>> [(s.player, s.points, s.spread, s.rank) for s in table]
    [('a', 2, 30, 1), ('b', 0, -30, 2)]
    >>> table = standings("abc", [MatchResult("a", "b", "a", 1, 0, 2, 0, 30)], byes=["c"])
    >>> [(s.player, s.points, s.match_wins, s.played, s.byes, s.rank) for s in table]
    [('a', 2, 1, 1, 0, 1), ('c', 2, 1, 0, 1, 2), ('b', 0, 0, 1, 0, 3)]
    >>> results = [MatchResult("a", "b", "b", 0, 1, 0, 2, -5), MatchResult("a", "c", "a", 1, 0, 2, 0, 40)]
    >>> [s.player for s in standings("ab", results, criteria=("points", "head_to_head", "spread"))]
    ['b', 'a']
    """
    criteria = tuple(criteria)
    unknown = [c for c in criteria if c not in CRITERIA]
    if unknown:
        raise ValueError(f"unknown standings criteria {unknown}: choose from {', '.join(CRITERIA)}")
    if len(set(criteria)) != len(criteria):
        raise ValueError("a standings criterion is listed twice")
    if cut_wins not in ("low", "high"):
        raise ValueError('cut_wins is "low" or "high"')
    order = order or {}
    gone = set(withdrawn)
    rows = {p: Standing(p, order=order.get(p, i), withdrawn=p in gone) for i, p in enumerate(players)}
    beat: Counter[tuple[Hashable, Hashable]] = Counter()
    met: set[frozenset] = set()
    for r in results:
        met.add(frozenset((r.a, r.b)))
        if r.winner is not None:
            beat[(r.winner, r.b if r.winner == r.a else r.a)] += 1
        for me, games_me, games_them, points, spread in (
            (r.a, r.games_a, r.games_b, r.points_a, r.spread),
            (r.b, r.games_b, r.games_a, r.points_b, -r.spread),
        ):
            row = rows.get(me)
            if row is None:
                continue
            row.played += 1
            if r.winner == me:
                row.match_wins += 1
            elif r.winner is not None:
                row.match_losses += 1
            row.games_won += games_me
            row.games_lost += games_them
            row.points += points
            row.spread += spread
    # A bye's average spread is over the matches played, so the matches are all counted first.
    credit = {row.player: bye.spread_for(row.spread, row.played) for row in rows.values()}
    for p in byes:
        row = rows.get(p)
        if row is None:
            continue
        row.byes += 1
        row.points += bye.points
        row.games_won += bye.games
        row.match_wins += bye.match_win
        row.spread += credit[p]

    cards = {p: card_rank(c) for p, c in (cut or {}).items()}
    sign = 1 if cut_wins == "low" else -1
    keys = {
        "points": lambda s: -s.points,
        "match_wins": lambda s: -s.match_wins,
        "games_won": lambda s: -s.games_won,
        "spread": lambda s: -s.spread,
        "cut": lambda s: (0, sign * cards[s.player]) if s.player in cards else (1, 0),
    }

    def split(group: list[Standing], criterion: str) -> list[list[Standing]]:
        if len(group) < 2:
            return [group]
        if criterion == "head_to_head":
            x, y = group if len(group) == 2 else (None, None)
            if x is None or frozenset((x.player, y.player)) not in met:
                return [group]
            x_wins, y_wins = beat[(x.player, y.player)], beat[(y.player, x.player)]
            if x_wins == y_wins:
                return [group]
            return [[x], [y]] if x_wins > y_wins else [[y], [x]]
        key = keys[criterion]
        group = sorted(group, key=key)
        parts = [[group[0]]]
        for row in group[1:]:
            if key(row) == key(parts[-1][-1]):
                parts[-1].append(row)
            else:
                parts.append([row])
        return parts

    # Each criterion splits the groups still level, so head-to-head sees exactly who is tied there.
    groups = [
        [r for r in rows.values() if not r.withdrawn],
        [r for r in rows.values() if r.withdrawn],
    ]
    for criterion in criteria:
        groups = [part for group in groups for part in split(group, criterion)]
    table: list[Standing] = []
    for group in groups:
        rank = len(table) + 1
        for row in sorted(group, key=lambda s: s.order):
            row.rank = rank
            table.append(row)
    return table
