"""Regenerate what each kept four pegs in the play (``games/engine/data/kept_four_pegging.txt``).

    python -m bench.kept_four_pegging                   # 480 deals per four and role: ~20 min on one core
    python -m bench.kept_four_pegging --deals 4 --out /tmp/pt   # a quick look, written elsewhere

For every multiset of four ranks (1,820) and each role, ``--deals`` deals are played out: the four
gets suits at random, the other side is dealt six of the cards left and keeps what the standard
player keeps (the best average hand), and the play is played by the engine's pegging
(``players.play_search.greedy_play`` for both sides: the search would take a hundred times longer
and ranks the fours alike). The table holds the average points the four made and gave away in the
play, his heels left out. Deal ``i`` of a four is seeded from ``(seed, four, role, i)``, so the table is
the same whatever the number of processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from itertools import combinations_with_replacement
from pathlib import Path

from games.engine.cards import DECK, SUITS, Card
from games.engine.players.discard import hand_table
from games.engine.players.kept_four_pegging import DATA_FILE, write_table
from games.engine.players.play_search import PegSituation, greedy_play
from games.engine.players.situation import points_for

FOURS = tuple(combinations_with_replacement(range(1, 14), 4))


def play_out(dealer: list[Card], pone: list[Card], seen: dict[bool, set[Card]]) -> tuple[int, int]:
    """Both sides peg greedily from these hands (``seen``: the cards each side knows, dealer's
    under True); the points (dealer's, pone's)."""
    hands = {True: list(dealer), False: list(pone)}
    points = {True: 0, False: 0}
    played: list[Card] = []
    series: list[Card] = []
    count, turn, last, gone = 0, False, None, {True: False, False: False}
    while hands[True] or hands[False]:
        fits = [c for c in hands[turn] if count + c.value <= 31]
        if not fits:
            gone[turn] = True
            other = not turn
            if not gone[other] and any(count + c.value <= 31 for c in hands[other]):
                turn = other
                continue
            if last is not None and count < 31:
                points[last] += 1  # the go
            series, count, gone = [], 0, {True: False, False: False}
            turn = not last if hands[not last] else last
            continue
        known = seen[turn].union(played, hands[turn])
        unseen = tuple(c for c in DECK if c not in known)
        sit = PegSituation(hand=tuple(hands[turn]), opp_cards=len(hands[not turn]), series=tuple(series),
                           count=count, opp_gone=gone[not turn], unseen=unseen)
        card = greedy_play(sit) if len(fits) > 1 else fits[0]
        points[turn] += points_for(tuple(c.rank for c in series), count, card.rank)
        hands[turn].remove(card)
        played.append(card)
        series.append(card)
        count += card.value
        last = turn
        if not hands[True] and not hands[False]:
            points[turn] += 0 if count == 31 else 1  # the last card
            break
        if count == 31:
            series, count, gone = [], 0, {True: False, False: False}
            turn = not turn if hands[not turn] else turn
        elif not gone[not turn]:
            turn = not turn
    return points[True], points[False]


def measure(four: tuple[int, ...], is_dealer: bool, deals: int, seed: int) -> tuple[float, float]:
    """The four's average points made and given in the play, in this role."""
    made = given = 0
    for i in range(deals):
        rng = random.Random(f"{seed}:{four}:{is_dealer}:{i}")
        mine = []
        for r in four:
            mine.append(rng.choice([Card(r, s) for s in SUITS if Card(r, s) not in mine]))
        rest = [c for c in DECK if c not in mine]
        rng.shuffle(rest)
        theirs = list(hand_table(rest[:6])[0].kept)
        starter = rest[6]
        mine_seen, their_seen = {*mine, starter}, {*rest[:6], starter}
        dealer, pone = (mine, theirs) if is_dealer else (theirs, mine)
        seen = {True: mine_seen, False: their_seen} if is_dealer else {True: their_seen, False: mine_seen}
        d, p = play_out(dealer, pone, seen)
        made += d if is_dealer else p
        given += p if is_dealer else d
    return made / deals, given / deals


def _chunk(args):
    fours, deals, seed = args
    return [(four, role, *measure(four, role, deals, seed)) for four in fours for role in (True, False)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # One deal's net (made minus given) varies by about 7 squared points and the fours' true nets
    # by about 0.3 to 0.5: at 24 deals a third of an entry's spread was luck, and the lay-away
    # chased it; at 480 about 3% is.
    parser.add_argument("--deals", type=int, default=480)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA_FILE.parent)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    chunks = [(FOURS[i:i + 20], args.deals, args.seed) for i in range(0, len(FOURS), 20)]
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            rows = [r for part in pool.map(_chunk, chunks) for r in part]
    else:
        rows = [r for c in chunks for r in _chunk(c)]
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / DATA_FILE.name
    write_table(rows, path)
    print(f"{len(FOURS)} fours x 2 roles x {args.deals} deals in {time.perf_counter() - start:.1f} s; "
          f"{path} {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
