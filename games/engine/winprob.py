"""The chance to win a two-player game from any score: who deals next, and both sides' scores.

A deal's points come in a fixed order: his heels and the play (the two sides' pegging
interleaved), then pone's hand, then the dealer's hand and crib. The first side to reach the
target wins, so the chance to win is a sum over what a deal may bring, walked in that order:

* **The play.** From expert self-play (``bench.winprob_table``), for every pair of needs
  ``(dealer needs d, pone needs p)`` the share of deals where the dealer's pegging reaches ``d``
  before the pone's reaches ``p``, and the other way round (his heels counts as the dealer's
  first peg); and the joint distribution of both sides' pegging totals for the deals where
  neither gets there.
* **The show.** The distribution of pone's hand, and of the dealer's hand plus crib, from the
  same deals, each taken as independent of the play.

What was counted from the deals is kept too (``data/deal_odds.json``), to value one deal's choices.

:func:`solve` turns those into ``P(the dealer wins)`` for every pair of scores below the target,
walking from the scores nearest the target down (a deal always scores at least the last card's
point, so every deal moves the game forward). The tables it made for 121 and 61 points are kept
in ``data/winprob_<target>.txt`` (one row per dealer score, one value per pone score, in
ten-thousandths) and read once.

>>> round(win_chance(0, 0, i_deal=True), 2)  # the first dealer's edge at 121 points
0.56
>>> win_chance(120, 0, i_deal=True), win_chance(0, 120, i_deal=True)
(1.0, 0.0)
>>> round(win_chance(0, 0, i_deal=True, target=61), 2)
0.54
>>> win_chance(90, 100, i_deal=False) < 0.5 < win_chance(100, 90, i_deal=False)
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

TARGETS = (121, 61)
SCALE = 10_000
DATA = Path(__file__).with_name("data")


@dataclass(frozen=True)
class DealSample:
    """One deal's points as they came: ``pegs`` the play's scores in order, each
    ``(dealer's?, points)`` with his heels first; then pone's hand, then the dealer's hand and crib."""

    pegs: tuple[tuple[bool, int], ...]
    pone_show: int
    dealer_hand: int
    crib: int = 0

    @property
    def dealer_show(self) -> int:
        return self.dealer_hand + self.crib


@dataclass
class DealOdds:
    """What :func:`solve` needs to know of a deal, counted from samples."""

    samples: int = 0
    # (dealer needs, pone needs) -> deals where the dealer / the pone pegs out first
    peg_out: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    peg_totals: dict[tuple[int, int], int] = field(default_factory=dict)
    pone_show: dict[int, int] = field(default_factory=dict)
    dealer_show: dict[int, int] = field(default_factory=dict)
    dealer_hand: dict[int, int] = field(default_factory=dict)
    max_peg: int = 0

    def to_dict(self) -> dict:
        """JSON-safe: pairs of numbers become ``"d,p"`` keys."""
        return {
            "samples": self.samples, "max_peg": self.max_peg,
            "peg_out": {f"{d},{p}": v for (d, p), v in self.peg_out.items()},
            "peg_totals": {f"{d},{p}": v for (d, p), v in self.peg_totals.items()},
            "pone_show": self.pone_show, "dealer_show": self.dealer_show, "dealer_hand": self.dealer_hand,
        }

    @classmethod
    def from_dict(cls, data: dict) -> DealOdds:
        def pairs(d: dict) -> dict:
            return {tuple(int(x) for x in k.split(",")): v for k, v in d.items()}

        def ints(d: dict) -> dict:
            return {int(k): v for k, v in d.items()}

        return cls(data["samples"], pairs(data["peg_out"]), pairs(data["peg_totals"]),
                   ints(data["pone_show"]), ints(data["dealer_show"]), ints(data["dealer_hand"]),
                   data["max_peg"])


def deal_odds(samples: Iterable[DealSample]) -> DealOdds:
    samples = list(samples)
    odds = DealOdds(samples=len(samples))
    reach = []  # per deal: for each side, the index of the peg at which its total first reaches k
    for s in samples:
        firsts = {True: [], False: []}
        totals = {True: 0, False: 0}
        for i, (dealer, points) in enumerate(s.pegs):
            totals[dealer] += points
            while len(firsts[dealer]) < totals[dealer]:
                firsts[dealer].append(i)
        reach.append(firsts)
        odds.peg_totals[(totals[True], totals[False])] = odds.peg_totals.get(
            (totals[True], totals[False]), 0) + 1
        odds.pone_show[s.pone_show] = odds.pone_show.get(s.pone_show, 0) + 1
        odds.dealer_show[s.dealer_show] = odds.dealer_show.get(s.dealer_show, 0) + 1
        odds.dealer_hand[s.dealer_hand] = odds.dealer_hand.get(s.dealer_hand, 0) + 1
        odds.max_peg = max(odds.max_peg, totals[True], totals[False])
    for d in range(1, odds.max_peg + 1):
        for p in range(1, odds.max_peg + 1):
            counts = [0, 0]
            for firsts in reach:
                dealer_at = firsts[True][d - 1] if len(firsts[True]) >= d else None
                pone_at = firsts[False][p - 1] if len(firsts[False]) >= p else None
                if dealer_at is not None and (pone_at is None or dealer_at < pone_at):
                    counts[0] += 1
                elif pone_at is not None:
                    counts[1] += 1
            odds.peg_out[(d, p)] = counts
    return odds


def solve(odds: DealOdds, target: int) -> list[list[float]]:
    """``table[a][b]``: the chance that the dealer, at ``a`` points against the pone's ``b``, wins
    the game (both below ``target``), with every deal like the sampled ones."""
    n = odds.samples
    pegs = [(d, p, c / n) for (d, p), c in odds.peg_totals.items()]
    pone_show = [(k, c / n) for k, c in sorted(odds.pone_show.items())]
    dealer_show = [(k, c / n) for k, c in sorted(odds.dealer_show.items())]
    win = [[0.0] * target for _ in range(target)]
    after_pone: dict[tuple[int, int], float] = {}  # dealer at a, pone at b after pone's show
    after_play: dict[tuple[int, int], float] = {}

    def shown_by_dealer(a: int, b: int) -> float:
        key = (a, b)
        if key not in after_pone:
            # The next deal's dealer is today's pone: today's dealer wins if it does not.
            after_pone[key] = sum(q if a + k >= target else q * (1.0 - win[b][a + k]) for k, q in dealer_show)
        return after_pone[key]

    def shown(a: int, b: int) -> float:
        key = (a, b)
        if key not in after_play:
            after_play[key] = sum(q * shown_by_dealer(a, b + k) for k, q in pone_show if b + k < target)
        return after_play[key]

    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(target - 1, total) + 1):
            b = total - a
            need_d, need_p = target - a, target - b
            chance = 0.0
            if need_d <= odds.max_peg or need_p <= odds.max_peg:
                chance += peg_out(odds, need_d, need_p)[0] / n
            for d, p, q in pegs:
                if d < need_d and p < need_p:
                    chance += q * shown(a + d, b + p)
            win[a][b] = chance
    return win


def peg_out(odds: DealOdds, need_d: int, need_p: int) -> list[int]:
    """Deals where the dealer / the pone pegs out first, when they need these many points."""
    top = odds.max_peg
    if need_d > top and need_p > top:
        return [0, 0]
    if need_d > top:  # the dealer never pegs that far: count the pone's reaching alone
        return [0, sum(c for (d, p), c in odds.peg_totals.items() if p >= need_p)]
    if need_p > top:
        return [sum(c for (d, p), c in odds.peg_totals.items() if d >= need_d), 0]
    return odds.peg_out[(need_d, need_p)]


def write_table(table: Sequence[Sequence[float]], path: Path) -> None:
    with path.open("w") as out:
        for row in table:
            out.write(" ".join(str(round(v * SCALE)) for v in row) + "\n")


@cache
def deal_odds_measured() -> DealOdds:
    """The deals the stored tables were solved from (``data/deal_odds.json``): for valuing one
    deal's choices in winning chances (``players/discard_chances.py``)."""
    with (DATA / "deal_odds.json").open() as f:
        return DealOdds.from_dict(json.load(f))


@cache
def _table(target: int) -> tuple[tuple[int, ...], ...]:
    if target not in TARGETS:
        raise ValueError(f"no table for a game to {target}")
    with (DATA / f"winprob_{target}.txt").open() as rows:
        return tuple(tuple(int(v) for v in row.split()) for row in rows)


def win_chance(my_score: int, their_score: int, i_deal: bool, target: int = 121) -> float:
    """The chance to win a two-player game, at the start of a deal (``i_deal``: I deal it)."""
    if my_score >= target:
        return 1.0
    if their_score >= target:
        return 0.0
    table = _table(target)
    if i_deal:
        return table[my_score][their_score] / SCALE
    return 1.0 - table[their_score][my_score] / SCALE
