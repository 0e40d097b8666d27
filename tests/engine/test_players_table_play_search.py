"""The expert's play at tables of three and four: the lookahead over deals of the unseen cards."""

from __future__ import annotations

import random

import pytest

from games.engine.actions import Discard, Play
from games.engine.cards import DECK, parse_cards
from games.engine.game import apply, legal_actions, new_game
from games.engine.players import choose_action
from games.engine.players.table_play_search import (
    FAR,
    TableSituation,
    _TableSolver,
    table_play,
    table_situation,
)
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.engine.view import view

PEGGING = frozenset({"fifteen", "thirty_one", "pair", "run", "go", "last_card"})


def situation(hand: str, series: str, *, players: int = 3) -> TableSituation:
    """Seat 0 to play; the others hold three cards each, the last card laid by the seat before."""
    mine = parse_cards(hand)
    laid = parse_cards(series) if series else ()
    n = players
    return TableSituation(
        hand=mine, sizes=(len(mine),) + (3,) * (n - 1), series=laid,
        count=sum(c.value for c in laid), gone=(False,) * n, last=n - 1 if laid else None,
        unseen=tuple(c for c in DECK if c not in mine and c not in laid), min_value=(1,) * n,
        sides=tuple(i % 2 for i in range(n)) if n == 4 else tuple(range(n)),
        needs=(FAR,) * (2 if n == 4 else n),
    )


@pytest.mark.parametrize("players", [3, 4])
def test_takes_a_31(players: int) -> None:
    # 9-8-4 makes 21: the king makes 31 for two; nothing else scores.
    assert str(table_play(situation("3D KS 2C", "9H 8D 4C", players=players), random.Random(1))) == "KS"


@pytest.mark.parametrize("players", [3, 4])
def test_takes_a_pair_royal(players: int) -> None:
    assert str(table_play(situation("2S 5C KH", "5H 5D", players=players), random.Random(2))) == "5C"


def _playing_views(players: int, seed: int):
    """Every view of a seeded table where a seat has a choice of cards in the play."""
    tag = f"tables:{players}:{seed}"
    rng = random.Random(tag)
    state = new_game(HouseRules(players=players), tag.encode())
    while state.phase not in ("game_over", "match_over") and state.game_no == 0 and state.deal_no < 2:
        for seat in state.to_act:
            v = view(state, seat)
            if state.phase == "play" and sum(isinstance(a, Play) for a in v.legal_actions) > 1:
                yield v
            state, _ = apply(state, choose_action(v, "standard" if state.phase == "play" else "easy", rng))
            if state.phase in ("game_over", "match_over"):
                return


@pytest.mark.parametrize("players", [3, 4])
def test_plays_only_legal_cards_and_replays_exactly(players: int) -> None:
    checked = 0
    for seed in range(3):
        for v in _playing_views(players, seed):
            action = choose_action(v, "expert", random.Random(seed))
            assert action in v.legal_actions
            assert choose_action(v, "expert", random.Random(seed)) == action
            card = table_play(table_situation(v), random.Random(7))
            assert card in v.hand and v.count + card.value <= 31
            checked += 1
    assert checked > 10


def test_the_situation_counts_seats_from_the_player_and_reads_the_goes() -> None:
    hands = ["KS KD QH 2C 9S", "JS JD QD TC 8S", "AH 3C 4D 5S 6H"]
    state = start_deal(HouseRules(players=3), dealer=2, hands=hands, starter="7C", crib_card="7D")
    for seat, card in enumerate(("9S", "8S", "6H")):
        state, _ = apply(state, Discard(seat, tuple(parse_cards(card))))
    # Seat 0 leads: K (10), J (20), A (21), K (31)... play a few cards by hand.
    for seat, card in ((0, "KS"), (1, "JS"), (2, "AH")):
        state, _ = apply(state, Play(seat, parse_cards(card)[0]))
    sit = table_situation(view(state, 0))
    assert sit.sizes == (3, 3, 3) and sit.count == 21 and sit.last == 2
    assert sit.sides == (0, 1, 2)
    assert [len(p) for p in sit.played] == [1, 1, 1]
    assert not set(sit.unseen) & {*sit.hand, *parse_cards("KS JS AH 7C")}
    four = start_deal(HouseRules(players=4), dealer=0, hands=hands + ["2H 2D 3H 3S 4H"], starter="7C")
    assert table_situation(view(four, 1)).sides == (0, 1, 0, 1)


def _exhaustive(state, sides: int) -> tuple[float, ...]:
    """Max^n over the engine itself: each seat maximises its side's points minus the others' mean."""
    if state.phase != "play":
        return (0.0,) * sides
    seat = state.turn
    moves: dict[int, Play] = {}
    for a in legal_actions(state, seat):
        if isinstance(a, Play):
            moves.setdefault(a.card.rank, a)
    if not moves:  # go: the go's point may be scored at once
        return _after(state, legal_actions(state, seat)[0], sides)
    best, best_u = None, 0.0
    side = seat % sides
    for rank in sorted(moves):
        future = _after(state, moves[rank], sides)
        u = future[side] - (sum(future) - future[side]) / (sides - 1)
        if best is None or u > best_u:
            best, best_u = future, u
    return best


def _after(state, action, sides: int) -> tuple[float, ...]:
    after, events = apply(state, action)
    future = list(_exhaustive(after, sides))
    for e in events:
        if e.kind in PEGGING:
            future[e.seat % sides] += e.points
    return tuple(future)


@pytest.mark.parametrize("players", [3, 4])
def test_the_solver_agrees_with_the_engine_on_known_hands(players: int) -> None:
    rng = random.Random(players)
    sides = 2 if players == 4 else 3
    checked = 0
    while checked < 12:
        cards = rng.sample(DECK, 5 * players + 2)
        hands = [cards[5 * i: 5 * i + 5] for i in range(players)]
        state = start_deal(HouseRules(players=players), dealer=0, hands=hands, starter=cards[-1],
                           crib_card=cards[-2] if players == 3 else None)
        for seat in range(players):
            state, _ = apply(state, Discard(seat, (hands[seat][4],)))
        for _ in range(rng.randint(3, 6)):
            if state.phase == "play":
                state, _ = apply(state, rng.choice(legal_actions(state, state.turn)))
        if state.phase != "play" or not any(isinstance(a, Play) for a in legal_actions(state, state.turn)):
            continue
        me = state.turn
        seats = [(me + i) % players for i in range(players)]
        ranks = tuple(tuple(sorted(c.rank for c in state.hands[s])) for s in seats)
        series = tuple(c.rank for _, c in state.series)
        rel_sides = tuple((s % sides - me % sides) % sides for s in seats)
        solver = _TableSolver(rel_sides, False, False, {})
        last = (seats.index(state.series[-1][0])) if state.series else None
        gone = tuple(state.gone[s] for s in seats)
        value = solver.node(ranks, series, state.count, 0, gone, last, (FAR,) * sides)
        expected = _exhaustive(state, sides)
        mine_first = tuple(expected[(me % sides + i) % sides] for i in range(sides))
        assert value == mine_first, (state.hands, state.series)
        checked += 1
