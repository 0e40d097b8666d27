"""Property tests for three-player and four-player (partners) games played by random legal moves.

After every action: all 52 cards accounted for, scores (one per side) never fall, every point an
event announces lands on the side of the seat it names, only the seats due may act, a new deal
gives five cards each (and the deck card to a three-player crib), the show counts from the
dealer's left round to the dealer and then the crib. At the end: a winner, skunks judged per
losing side, the Move log replays to the identical state. Now and then (and at the end) every
seat's view is checked: no seat sees another's unplayed cards, a partner's included, and partners
see the same score. The hostile test also throws illegal actions at every step.

Sized for well under half a minute on the shared machine; raise the counts for a soak, e.g.
MULTI_PROPERTY_MATCHES=2000 MULTI_PROPERTY_HOSTILE=100 pytest tests/engine/test_game_multi_properties.py
"""

from __future__ import annotations

import json
import os
import random

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

RULESETS = tuple(
    HouseRules(players=n, **options)
    for n in (3, 4)
    for options in (
        {},
        {"target": 61},
        {"manual_counting": True, "muggins": True},
        {"peg_out_zone": 5, "match_games": 3, "triple_skunk": True, "pone_cuts": True},
        {"target": 61, "match_games": 3, "manual_counting": True, "muggins": True, "peg_out_zone": 1},
        {"skunks": False, "match_games": 3, "target": 61},
    )
)
MAX_STEPS = 30_000  # far more than any match needs: a loop fails here instead of hanging
MATCHES = int(os.environ.get("MULTI_PROPERTY_MATCHES", "60"))
HOSTILE_MATCHES = int(os.environ.get("MULTI_PROPERTY_HOSTILE", "10"))
VIEW_SAMPLE = 0.03  # share of steps at which every seat's view is checked for leaks
_SLOW_OK = [HealthCheck.too_slow]

seeds = st.integers(min_value=0, max_value=2**63)
rulesets = st.sampled_from(RULESETS)


def check_cards(state: GameState) -> None:
    """Every card is in exactly one place: hands, plays, crib, starter or the undealt deck."""
    if not state.deck:  # nothing dealt yet: the cut for deal, or a resignation during it
        assert not any(state.hands)
        assert state.phase == "cut" or (state.phase == "match_over" and state.results[-1].reason == "resign")
        return
    places = [c for hand in state.hands for c in hand]
    places += [c for _, c in state.plays]
    places += state.crib
    if state.starter is not None:
        places.append(state.starter)
    places += state.deck_remainder
    assert len(places) == 52 and set(places) == set(DECK)
    for seat in range(state.players):
        if state.discards[seat]:
            assert len(state.discards[seat]) == 1 and len(state.kept[seat]) == 4
            played = [c for s, c in state.plays if s == seat]
            assert sorted(state.kept[seat]) == sorted(list(state.hands[seat]) + played)
    assert 0 <= state.count <= 31 and state.count == sum(c.value for _, c in state.series)


def check_step(before: GameState, after: GameState, events) -> None:
    n, sides = after.players, after.sides
    assert sides == (2 if n == 4 else n) and len(after.back_pegs) == len(after.match_scores) == sides
    check_cards(after)
    assert all(e.kind in EVENT_KINDS for e in events)
    if after.game_no == before.game_no:
        # Every point an event announces is pegged on the side of the seat it names, and only then.
        for side in range(sides):
            won = sum(e.points for e in events if e.seat is not None and e.seat % sides == side)
            assert after.scores[side] - before.scores[side] == won
    assert all(b <= s for b, s in zip(after.back_pegs, after.scores, strict=True))
    assert all(a >= b for a, b in zip(after.match_scores, before.match_scores, strict=True))
    for seat in range(n):
        if seat not in after.to_act:
            assert legal_actions(after, seat) == ()
    if after.phase == "discard" and not any(after.discards):  # a fresh deal
        assert [len(h) for h in after.hands] == [5] * n
        assert after.crib == ((after.deck[15],) if n == 3 else ())
    if after.phase == "play":
        turn = after.turn
        assert after.hands[turn] and not after.gone[turn]
        if not after.plays:
            assert turn == after.pone == (after.dealer + 1) % n
    if after.phase in ("play", "show") and after.starter is not None:
        assert after.starter == after.deck[16 if n == 3 else 20]
    if after.show:
        order = [((after.dealer + k) % n, "hand") for k in range(1, n + 1)] + [(after.dealer, "crib")]
        assert [(e.seat, e.kind) for e in after.show] == order[:len(after.show)]


def check_views(state: GameState) -> None:
    views = [view(state, seat) for seat in range(state.players)]
    for seat, v in enumerate(views):
        assert_view_hides(state, seat, v)
        assert v.scores == state.scores and v.side == state.side_of(seat)
        assert v.hand == state.hands[seat]
        if state.players == 4:
            partner = views[(seat + 2) % 4]
            assert partner.my_score == v.my_score and partner.side == v.side
            assert not set(partner.hand) & set(v.hand)


def play_match(rules: HouseRules, seed: int, on_step=None) -> tuple[GameState, list]:
    rng = random.Random(seed)
    state = new_game(rules, seed.to_bytes(8, "big"))
    actions = []
    for _ in range(MAX_STEPS):
        if state.finished:
            return state, actions
        if on_step is not None:
            on_step(state, rng)
        if rng.random() < VIEW_SAMPLE:
            check_views(state)
        if rng.random() < 0.0003:  # now and then somebody gives up
            action = Resign(rng.randrange(state.players))
        else:
            seat = rng.choice(state.to_act)
            action = rng.choice(legal_actions(state, seat))
        new, events = apply(state, action)
        check_step(state, new, events)
        actions.append(action)
        state = new
    raise AssertionError("match did not end")


def check_final(state: GameState, rules: HouseRules, seed: int, actions: list) -> None:
    sides = state.sides
    assert state.phase == "match_over" and state.match_winner in range(sides)
    assert state.results
    for result in state.results:
        assert result.winner in range(sides) and len(result.scores) == len(result.skunks) == sides
        assert result.skunks[result.winner] == 0 and result.skunk == max(result.skunks)
        assert result.value == 1 << result.skunk
        losers = [s for s in range(sides) if s != result.winner]
        assert result.loser_score == min(result.scores[s] for s in losers)
        if result.reason == "target":
            assert result.scores[result.winner] >= rules.target
            assert all(result.scores[s] < rules.target for s in losers)
            for s in losers:
                score = result.scores[s]
                expected = 0 if not rules.skunks else (
                    3 if rules.triple_skunk_line and score < rules.triple_skunk_line else
                    2 if rules.double_skunk_line and score < rules.double_skunk_line else
                    int(score < rules.skunk_line))
                assert result.skunks[s] == expected
        else:
            assert result.skunks == (0,) * sides
    last = state.results[-1]
    if isinstance(actions[-1], Resign):
        assert state.side_of(actions[-1].seat) != state.match_winner
    else:
        assert last.reason == "target" and state.match_winner == last.winner
        assert state.match_scores[state.match_winner] >= rules.games_to_win_match
    assert sum(state.match_scores) == sum(r.value for r in state.results)
    check_views(state)
    # The Move log rebuilds the identical state, also through its JSON form.
    replayed = new_game(rules, seed.to_bytes(8, "big"))
    for action in actions:
        replayed, _ = apply(replayed, action_from_dict(json.loads(json.dumps(action_to_dict(action)))))
    assert replayed == state
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@settings(max_examples=MATCHES, deadline=None, suppress_health_check=_SLOW_OK)
@given(seed=seeds, rules=rulesets)
def test_random_multi_player_matches(seed, rules):
    snapshots = []

    def sample(state, rng):
        if rng.random() < 0.01:
            snapshots.append(state)

    state, actions = play_match(rules, seed, sample)
    check_final(state, rules, seed, actions)
    for snap in snapshots:
        assert GameState.from_dict(json.loads(json.dumps(snap.to_dict()))) == snap


# --- hostile ------------------------------------------------------------------------------------


def _key(action):
    if isinstance(action, Discard):
        return ("discard", action.seat, frozenset(action.cards), len(action.cards))
    return action


def random_action(rng: random.Random, state: GameState):
    n = state.players
    seat = rng.choice((*range(n), rng.randrange(n), n, -1))
    own = state.hands[seat] if 0 <= seat < n and state.hands[seat] else None
    card = rng.choice(own) if own and rng.random() < 0.6 else rng.choice(DECK)
    choice = rng.randrange(9)
    if choice == 0:
        return CutForDeal(seat, rng.randrange(-2, 55))
    if choice == 1:
        pool = list(own or DECK)
        return Discard(seat, tuple(rng.choice(pool) for _ in range(rng.choice((0, 1, 1, 2)))))
    if choice == 2:
        return Play(seat, card)
    if choice == 3:
        return Go(seat)
    if choice == 4:
        return Count(seat, rng.randrange(-1, 32))
    return (CallMuggins, AcceptCount, NextDeal, NextGame)[choice - 5](seat)


def hostile_step(state: GameState, rng: random.Random) -> None:
    legal = {_key(a) for seat in range(state.players) for a in legal_actions(state, seat)}
    for _ in range(10):
        action = random_action(rng, state)
        if _key(action) in legal:
            continue
        try:
            apply(state, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"illegal {action} accepted in phase {state.phase}")
    for seat in state.to_act:
        options = legal_actions(state, seat)
        for action in rng.sample(options, min(2, len(options))):
            apply(state, action)


@settings(max_examples=HOSTILE_MATCHES, deadline=None, suppress_health_check=_SLOW_OK)
@given(seed=seeds, rules=rulesets)
def test_random_multi_player_matches_hostile(seed, rules):
    state, actions = play_match(rules, seed, hostile_step)
    check_final(state, rules, seed, actions)


def test_a_resignation_during_the_cut_for_deal_ends_the_match_with_nothing_dealt():
    """Found by the property test above (seed 127461383, four players): nothing is dealt before
    the cut for deal ends, and a player may resign at any time."""
    for players in (3, 4):
        state = new_game(HouseRules(players=players), b"resign-at-cut")
        before = state
        state, events = apply(state, Resign(1))
        check_step(before, state, events)
        assert state.phase == "match_over" and not state.deck and not any(state.hands)
        assert state.match_winner != state.side_of(1) and state.results[-1].reason == "resign"
