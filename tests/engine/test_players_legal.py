"""Computer players only ever choose legal actions, from their own view, under every house rule.

Each example plays a whole match: one seat is the computer under test, the others pick uniformly
among their legal actions (so it under-counts at random with manual counting, which the computer
must punish with muggins). Every decision of the computer is checked against ``legal_actions``.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import AcceptCount, CallMuggins, Count, Discard, Go, Play
from games.engine.game import apply, legal_actions, new_game
from games.engine.players import LEVELS, choose_action
from games.engine.rules import HouseRules
from games.engine.view import view

RULES = st.builds(
    HouseRules,
    target=st.sampled_from((121, 61)),
    peg_out_zone=st.sampled_from((0, 1, 5)),
    manual_counting=st.booleans(),
    match_games=st.sampled_from((1, 3)),
    players=st.sampled_from((2, 2, 3, 4)),
).flatmap(
    lambda r: st.sampled_from((r, HouseRules(**{**r.to_dict(), "muggins": True})))
    if r.manual_counting else st.just(r)
)


def play_match(rules: HouseRules, level: str, computer: int, seed: int, max_actions: int = 3000) -> int:
    """Play a match; return how many decisions the computer made (all checked)."""
    rng = random.Random(seed)
    computer %= rules.players
    state = new_game(rules, f"legal-{seed}".encode())
    decisions = 0
    for _ in range(max_actions):
        if state.phase == "match_over":
            break
        seat = state.to_act[0]
        legal = legal_actions(state, seat)
        if seat == computer:
            action = choose_action(view(state, seat), level, rng)
            assert action in legal, (action, legal)
            decisions += 1
            _check_show_choices(state, action)
        else:
            action = rng.choice(legal)
        state, _ = apply(state, action)
    assert state.phase == "match_over"
    return decisions


def _check_show_choices(state, action) -> None:
    """Counts are always true; muggins is called exactly when the opponent under-counted."""
    if isinstance(action, Count):
        assert action.points == state.show[-1].score.total
    if isinstance(action, CallMuggins | AcceptCount):
        entry = state.show[-1]
        assert isinstance(action, CallMuggins) == (entry.claimed < entry.score.total)
    if isinstance(action, Go):
        assert not any(isinstance(a, Play) for a in legal_actions(state, action.seat))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, level=st.sampled_from(LEVELS), computer=st.integers(0, 3), seed=st.integers(0, 10**9))
def test_computer_moves_are_always_legal(rules: HouseRules, level: str, computer: int, seed: int) -> None:
    assert play_match(rules, level, computer, seed) > 0


def test_every_level_plays_thousands_of_legal_moves() -> None:
    # A fixed sweep on top of the generated examples: each level, two seats, manual counting with
    # muggins and a peg-out zone, the short game, three and four players (seat 1 for the computer).
    total = 0
    rules = [
        HouseRules(),
        HouseRules(target=61, manual_counting=True, muggins=True, peg_out_zone=5),
        HouseRules(manual_counting=True, muggins=True, peg_out_zone=1, match_games=3),
        HouseRules(players=3, manual_counting=True, muggins=True),
        HouseRules(players=4, target=61),
    ]
    for i, level in enumerate(LEVELS):
        for computer in (0, 1):
            for j, r in enumerate(rules):
                for k in range(3):
                    total += play_match(r, level, computer, seed=1000 * i + 100 * computer + 10 * j + k)
    assert total > 3000


def test_computer_versus_computer_discards_are_legal_and_seeded() -> None:
    # Same seed, same game: the players' randomness comes only from the Random passed in.
    def moves(seed: int) -> list:
        rng = random.Random(seed)
        state = new_game(HouseRules(), b"seeded")
        out = []
        while state.phase != "match_over":
            seat = state.to_act[0]
            action = choose_action(view(state, seat), ("expert", "standard")[seat], rng)
            out.append(action)
            state, _ = apply(state, action)
        return out

    first = moves(3)
    assert first == moves(3)
    assert any(isinstance(a, Discard) for a in first)
