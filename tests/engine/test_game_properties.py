"""Property tests: whole matches played by random legal moves under many house rules.

Two layers, to keep the run under a minute on a busy two-core machine:
* ``test_random_matches``: many matches (each one to three games) with the cheap invariants checked
  after every action: all 52 cards accounted for, scores never fall, only the seats due may act,
  every game ends with a winner, the Move log replays to the identical state, serialization
  round-trips.
* ``test_random_matches_hostile``: fewer matches, and at every step random illegal actions (wrong
  seat, wrong phase, cards not held, bad counts...) must be refused with the state unchanged, every
  listed legal action must be accepted, and neither seat's view may name a card hidden from it.
"""

from __future__ import annotations

import json
import os
import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import (
    AcceptCount,
    CallMuggins,
    Count,
    CutForDeal,
    Discard,
    Go,
    NextDeal,
    NextGame,
    Play,
    Resign,
    action_from_dict,
    action_to_dict,
)
from games.engine.cards import DECK
from games.engine.errors import IllegalAction
from games.engine.events import EVENT_KINDS
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.state import GameState
from games.engine.view import view
from tests.engine.game_support import assert_view_hides

RULESETS = (
    HouseRules(),
    HouseRules(target=61),
    HouseRules(manual_counting=True),
    HouseRules(manual_counting=True, muggins=True),
    HouseRules(manual_counting=True, muggins=True, peg_out_zone=1, target=61),
    HouseRules(peg_out_zone=5, match_games=3, triple_skunk=True, pone_cuts=True),
    HouseRules(target=61, match_games=5, manual_counting=True, muggins=True, peg_out_zone=5),
    HouseRules(skunks=False, match_games=3, target=61),
    HouseRules(peg_out_zone=1, manual_counting=True),
    HouseRules(pone_cuts=True, manual_counting=True, muggins=True),
)
MAX_STEPS = 20_000  # far more than any match needs; a loop would fail here, not hang

seeds = st.integers(min_value=0, max_value=2**63)
rulesets = st.sampled_from(RULESETS)
# Thousands of random games: 1,300 matches of these rule sets (a third of them
# best of 3 or 5, 1.57 games a match) play about 2,000 games, 20-70 s of CPU here. For a soak:
# GAME_PROPERTY_MATCHES=5000 GAME_PROPERTY_HOSTILE=300 pytest tests/engine/test_game_properties.py
MATCHES = int(os.environ.get("GAME_PROPERTY_MATCHES", "1300"))
HOSTILE_MATCHES = int(os.environ.get("GAME_PROPERTY_HOSTILE", "15"))
_SLOW_OK = [HealthCheck.too_slow]
settings_fast = settings(max_examples=MATCHES, deadline=None, suppress_health_check=_SLOW_OK)
settings_slow = settings(max_examples=HOSTILE_MATCHES, deadline=None, suppress_health_check=_SLOW_OK)


_SUIT_OFFSET = {"S": 0, "H": 13, "D": 26, "C": 39}
_ALL = (1 << 52) - 1


def _mask(cards) -> tuple[int, int]:
    """(bitmask of the cards, how many): a cheap exact multiset check for distinct cards."""
    mask = n = 0
    for c in cards:
        mask |= 1 << (c.rank - 1 + _SUIT_OFFSET[c.suit])
        n += 1
    return mask, n


def check_cards(state: GameState) -> None:
    """Every card is in exactly one place: hands, plays, crib, starter or the undealt deck."""
    if not state.deck:
        assert state.phase in ("cut", "match_over") and not any(state.hands)
        return
    places = [c for hand in state.hands for c in hand]
    places += [c for _, c in state.plays]
    places += state.crib
    if state.starter is not None:
        places.append(state.starter)
    places += state.deck_remainder
    assert _mask(places) == (_ALL, 52)
    for seat in range(state.players):
        if state.discards[seat]:
            played = [c for s, c in state.plays if s == seat]
            assert _mask(state.kept[seat]) == _mask(list(state.hands[seat]) + played)
            assert len(state.kept[seat]) == 4
    assert 0 <= state.count <= 31
    assert state.count == sum(c.value for _, c in state.series)


def check_step(before: GameState, after: GameState) -> None:
    check_cards(after)
    if after.game_no == before.game_no:
        assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
    assert all(b <= s for b, s in zip(after.back_pegs, after.scores, strict=True))
    assert sum(after.match_scores) >= sum(before.match_scores)
    for seat in range(after.players):
        if seat not in after.to_act:
            assert legal_actions(after, seat) == ()


def play_match(rules: HouseRules, seed: int, on_step=None) -> tuple[GameState, list]:
    rng = random.Random(seed)
    state = new_game(rules, seed.to_bytes(8, "big"))
    actions = []
    for _ in range(MAX_STEPS):
        if state.finished:
            return state, actions
        if on_step is not None:
            on_step(state, rng)
        if rng.random() < 0.0004:  # now and then somebody gives up
            action = Resign(rng.randrange(2))
        else:
            seat = rng.choice(state.to_act)
            action = rng.choice(legal_actions(state, seat))
        new, events = apply(state, action)
        check_step(state, new)
        assert all(e.kind in EVENT_KINDS for e in events)
        actions.append(action)
        state = new
    raise AssertionError("match did not end")


def check_final(state: GameState, rules: HouseRules, seed: int, actions: list) -> None:
    assert state.phase == "match_over" and state.match_winner in (0, 1)
    assert state.results and all(r.winner in (0, 1) for r in state.results)
    last = state.results[-1]
    if isinstance(actions[-1], Resign):
        assert state.match_winner != actions[-1].seat
    else:
        assert last.reason == "target"
        assert last.scores[last.winner] >= rules.target
        assert state.match_scores[state.match_winner] >= rules.games_to_win_match
        assert state.match_winner == last.winner
    for result in state.results:
        if result.reason == "target":
            assert result.loser_score < rules.target and result.value == 1 << result.skunk
            assert rules.skunks or result.skunk == 0
    # The Move log rebuilds the identical state, also through its JSON form.
    replayed = new_game(rules, seed.to_bytes(8, "big"))
    for action in actions:
        replayed, _ = apply(replayed, action_from_dict(json.loads(json.dumps(action_to_dict(action)))))
    assert replayed == state
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@settings_fast
@given(seed=seeds, rules=rulesets)
def test_random_matches(seed, rules):
    snapshots = []

    def sample(state, rng):
        if rng.random() < 0.02:
            snapshots.append(state)

    state, actions = play_match(rules, seed, sample)
    check_final(state, rules, seed, actions)
    for snap in snapshots:
        assert GameState.from_dict(json.loads(json.dumps(snap.to_dict()))) == snap


# --- hostile ------------------------------------------------------------------------------------


def _key(action):
    """Discards are legal in any card order; compare them as sets."""
    if isinstance(action, Discard):
        return ("discard", action.seat, frozenset(action.cards), len(action.cards))
    return action


def random_action(rng: random.Random, state: GameState):
    seat = rng.choice((0, 0, 1, 1, 2, -1))
    card = rng.choice(DECK)
    own = state.hands[seat] if seat in (0, 1) and state.hands[seat] else None
    if own and rng.random() < 0.5:
        card = rng.choice(own)
    choice = rng.randrange(9)
    if choice == 0:
        return CutForDeal(seat, rng.randrange(-2, 55))
    if choice == 1:
        pool = list(own or DECK)
        cards = [rng.choice(pool) for _ in range(rng.choice((0, 1, 2, 2, 2, 3)))]
        return Discard(seat, tuple(cards))
    if choice == 2:
        return Play(seat, card)
    if choice == 3:
        return Go(seat)
    if choice == 4:
        return Count(seat, rng.randrange(-1, 32))
    return (CallMuggins, AcceptCount, NextDeal, NextGame)[choice - 5](seat)


def hostile_step(state: GameState, rng: random.Random) -> None:
    before = state.to_dict()
    legal = {_key(a) for seat in (0, 1) for a in legal_actions(state, seat)}
    # Seats that are not due have nothing to do.
    for seat in (0, 1):
        if seat not in state.to_act:
            for action in (Go(seat), NextDeal(seat), Count(seat, 0), Play(seat, rng.choice(DECK))):
                try:
                    apply(state, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{action} accepted from a seat not due")
    for _ in range(12):
        action = random_action(rng, state)
        if _key(action) in legal:
            continue
        try:
            apply(state, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"illegal {action} accepted in phase {state.phase}")
    # Every listed action is accepted (a sample for the long lists).
    for seat in state.to_act:
        options = legal_actions(state, seat)
        for action in rng.sample(options, min(3, len(options))):
            apply(state, action)
        if state.phase == "discard" and options:
            # Order does not matter for a discard.
            apply(state, Discard(seat, tuple(reversed(options[0].cards))))
    for seat in (0, 1):
        assert_view_hides(state, seat, view(state, seat))
    assert state.to_dict() == before


@settings_slow
@given(seed=seeds, rules=rulesets)
def test_random_matches_hostile(seed, rules):
    state, actions = play_match(rules, seed, hostile_step)
    check_final(state, rules, seed, actions)
    for seat in (0, 1):
        assert_view_hides(state, seat, view(state, seat))


def test_discard_legal_actions_are_all_pairs():
    state = new_game(HouseRules(), b"pairs")
    state, _ = apply(state, CutForDeal(0, 0))
    state, _ = apply(state, CutForDeal(1, 1))
    if state.phase == "discard":
        hand = state.hands[0]
        assert {frozenset(a.cards) for a in legal_actions(state, 0)} == {
            frozenset(c) for c in combinations(hand, 2)}
