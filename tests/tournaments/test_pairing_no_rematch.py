"""Qualifying rounds paired round by round (by standing or at random): never a rematch, byes spread,
and a pairing of the whole field whenever one exists (checked against brute force)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.pairing import (
    MatchResult,
    PairingError,
    max_rounds,
    pair_round,
    round_robin,
    safe_rounds,
    standings,
)

# --- brute force ----------------------------------------------------------------------------------


def _legal(people: list, history: list) -> tuple[set[frozenset], list]:
    met = {frozenset(p) for p in history if p[1] is not None and p[0] in people and p[1] in people}
    byes = Counter(a for a, b in history if b is None and a in people)
    fewest = min(byes[p] for p in people)
    return met, [p for p in people if byes[p] == fewest]


def all_pairings(people: list, history: list) -> Iterator[list[tuple]]:
    """Every legal round: no rematch, the bye (odd field) to someone with the fewest byes."""
    met, eligible = _legal(people, history)

    def matches(left: list) -> Iterator[list[tuple]]:
        if not left:
            yield []
            return
        v, rest = left[0], left[1:]
        for u in rest:
            if frozenset((v, u)) not in met:
                for more in matches([x for x in rest if x != u]):
                    yield [(v, u), *more]

    if len(people) % 2:
        for b in eligible:
            for more in matches([p for p in people if p != b]):
                yield [(b, None), *more]
    else:
        yield from matches(list(people))


def first_by_standing(people: list, history: list, standing: list) -> list[tuple] | None:
    """The pairing the standing method promises, by definition: the bye to the lowest-standing
    eligible player, then each unpaired player in standing order with the best-placed opponent,
    every choice the first that the rest can complete. Found as the least of all legal pairings."""
    place = {p: i for i, p in enumerate(standing)}
    _, eligible = _legal(people, history)

    def key(pairing: list[tuple]) -> tuple:
        partner = {}
        for a, b in pairing:
            partner[a] = b
            if b is not None:
                partner[b] = a
        seq, done, out = [], set(), []
        bye = next((a for a, b in pairing if b is None), None)
        if bye is not None:
            seq.append(-place[bye])
            done.add(bye)
            out.append((bye, None))
        for v in standing:
            if v not in done:
                seq.append(place[partner[v]])
                done |= {v, partner[v]}
                out.append((v, partner[v]))
        return tuple(seq), out

    keyed = [key(p) for p in all_pairings(people, history)]
    return min(keyed)[1] if keyed else None


def check_round(people: list, history: list, pairs: list[tuple]) -> None:
    seen = [x for pair in pairs for x in pair if x is not None]
    assert sorted(seen) == sorted(people)  # everyone exactly once
    met = {frozenset(p) for p in history if p[1] is not None}
    for a, b in pairs:
        if b is not None:
            assert frozenset((a, b)) not in met, f"rematch {a} v {b}"
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == len(people) % 2
    assert all(b is not None for a, b in pairs[len(byes) :])  # the bye is listed first


# --- small fields against brute force ------------------------------------------------------------


@st.composite
def histories(draw, max_players: int = 9) -> tuple[list, list, list]:
    n = draw(st.integers(2, max_players))
    people = list(range(n))
    pairs = st.tuples(st.sampled_from(people), st.sampled_from(people)).filter(lambda p: p[0] != p[1])
    # Any set of meetings, not only those whole rounds make: odd cycles test the blossoms.
    met = draw(st.lists(pairs, max_size=n * (n - 1) // 2))
    byes = [(p, None) for p in draw(st.lists(st.sampled_from(people), max_size=2 * n))]
    standing = draw(st.permutations(people))
    return people, met + byes, list(standing)


@settings(max_examples=200, deadline=None)
@given(histories())
def test_standing_pairs_the_field_iff_possible_and_takes_the_first_by_standing(h: tuple) -> None:
    people, history, standing = h
    expected = first_by_standing(people, history, standing)
    if expected is None:
        with pytest.raises(PairingError):
            pair_round(people, history, standing=standing)
        return
    pairs = pair_round(people, history, standing=standing)
    check_round(people, history, pairs)
    assert pairs == expected


@settings(max_examples=100, deadline=None)
@given(histories(), st.integers(0, 2**32 - 1))
def test_random_pairs_the_field_iff_possible_and_replays_from_the_seed(h: tuple, seed: int) -> None:
    people, history, _ = h
    possible = {
        frozenset(frozenset(x for x in p if x is not None) for p in r) for r in all_pairings(people, history)
    }
    if not possible:
        with pytest.raises(PairingError):
            pair_round(people, history, method="random", rng=random.Random(seed))
        return
    pairs = pair_round(people, history, method="random", rng=random.Random(seed))
    check_round(people, history, pairs)
    assert frozenset(frozenset(x for x in p if x is not None) for p in pairs) in possible
    assert pair_round(people, history, method="random", rng=random.Random(seed)) == pairs


def test_random_can_draw_every_legal_pairing_and_every_eligible_bye() -> None:
    people = list("abcde")
    history = [("a", None), ("b", "c")]
    drawn = Counter()
    for seed in range(400):
        pairs = pair_round(people, history, method="random", rng=random.Random(seed))
        drawn[frozenset(frozenset(x for x in p if x is not None) for p in pairs)] += 1
    possible = {
        frozenset(frozenset(x for x in p if x is not None) for p in r) for r in all_pairings(people, history)
    }
    assert set(drawn) == possible


# --- whole qualifyings ----------------------------------------------------------------------------


def play(n: int, rounds: int, method: str, seed: int) -> tuple[list, list, list]:
    """Pair ``rounds`` rounds of a field of ``n`` with random results; returns what was played
    and, if a round could not be paired, stops there."""
    rng = random.Random(seed)
    people = list(range(n))
    history: list[tuple] = []
    results: list[MatchResult] = []
    byes: list = []
    played_rounds = []
    for _ in range(rounds):
        table = standings(people, results, byes=byes)
        order = [row.player for row in table]
        before = list(history)
        try:
            pairs = pair_round(people, history, standing=order, method=method, rng=rng)  # type: ignore[arg-type]
        except PairingError:
            return people, played_rounds, before
        check_round(people, before, pairs)
        played_rounds.append(pairs)
        history += pairs
        for a, b in pairs:
            if b is None:
                byes.append(a)
                continue
            a_wins = rng.random() < 0.5
            spread = rng.randint(1, 80)
            results.append(
                MatchResult(
                    a,
                    b,
                    a if a_wins else b,
                    int(a_wins),
                    int(not a_wins),
                    2 * a_wins,
                    2 * (not a_wins),
                    spread if a_wins else -spread,
                )
            )
        # The bye rule: nobody has two more byes than anyone else (never 2 while someone has 0).
        count = Counter(byes)
        assert max(count[p] for p in people) - min(count[p] for p in people) <= 1
    return people, played_rounds, history


def _assert_full_qualifying(n: int, rounds: int, method: str, seed: int) -> None:
    people, played_rounds, history = play(n, rounds, method, seed)
    if len(played_rounds) < rounds:
        # Only past the rounds always pairable, and (small fields) only when brute force agrees.
        assert len(played_rounds) + 1 > safe_rounds(n)
        if n <= 10:
            assert next(all_pairings(people, history), None) is None
        return
    games = Counter(x for r in played_rounds for p in r if p[1] is not None for x in p)
    byes = Counter(a for r in played_rounds for a, b in r if b is None)
    assert all(games[p] + byes[p] == rounds for p in people)  # N games, or byes for the rest
    met = [frozenset(p) for r in played_rounds for p in r if p[1] is not None]
    assert len(met) == len(set(met))  # no rematch, ever


@settings(max_examples=120, deadline=None)
@given(
    st.integers(2, 24).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, max_rounds(n)))),
    st.sampled_from(["standing", "random"]),
    st.integers(0, 2**32 - 1),
)
def test_small_fields_up_to_every_possible_round(nr: tuple[int, int], method: str, seed: int) -> None:
    n, rounds = nr
    _assert_full_qualifying(n, rounds, method, seed)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(25, 256),
    st.integers(1, 12),
    st.sampled_from(["standing", "random"]),
    st.integers(0, 2**32 - 1),
)
def test_large_fields_always_pair_twelve_rounds(n: int, rounds: int, method: str, seed: int) -> None:
    assert rounds <= safe_rounds(n)
    people, played_rounds, _ = play(n, rounds, method, seed)
    assert len(played_rounds) == rounds
    _assert_full_qualifying(n, rounds, method, seed)


@pytest.mark.parametrize("n", range(2, 41))
def test_every_field_pairs_its_safe_rounds(n: int) -> None:
    for seed in range(3):
        for method in ("standing", "random"):
            _, played_rounds, _ = play(n, safe_rounds(n), method, seed)
            assert len(played_rounds) == safe_rounds(n)


# --- the director's view -------------------------------------------------------------------------


def test_rounds_possible_and_safe() -> None:
    assert [max_rounds(n) for n in range(0, 8)] == [0, 0, 1, 3, 3, 5, 5, 7]
    assert [safe_rounds(n) for n in range(0, 8)] == [0, 0, 1, 2, 2, 3, 3, 4]
    for n in range(2, 20):
        assert safe_rounds(n) <= max_rounds(n)
        # A round robin's rounds are what max_rounds counts: after them no round is possible.
        history = [p for r in round_robin(list(range(n))) for p in r]
        assert len(round_robin(list(range(n)))) == max_rounds(n)
        with pytest.raises(PairingError):
            pair_round(list(range(n)), history)


def test_six_players_can_be_stuck_after_three_rounds_with_a_message_for_the_director() -> None:
    # The two halves met each other in every round: what is left is two triangles.
    top, bottom = ["a", "b", "c"], ["d", "e", "f"]
    history = [(top[i], bottom[(i + r) % 3]) for r in range(3) for i in range(3)]
    with pytest.raises(PairingError) as refused:
        pair_round(top + bottom, history)
    message = str(refused.value)
    assert "cannot be paired without a rematch" in message
    assert "at most 5 rounds" in message and "only 3" in message and "round robin" in message


def test_the_message_names_a_player_who_has_met_everyone() -> None:
    history = [("a", "b"), ("a", "c"), ("c", None)]
    with pytest.raises(
        PairingError, match="a has already met every other entrant, and cannot have another bye"
    ):
        pair_round(["a", "b", "c"], history + [("a", None)])
    with pytest.raises(PairingError, match="and 3 others"):
        everyone = [(x, y) for i, x in enumerate("abcdefgh") for y in "abcdefgh"[i + 1 :]]
        pair_round(list("abcdefgh"), everyone)


def test_standing_takes_the_next_one_not_met_and_backtracks_to_pair_everyone() -> None:
    people = ["a", "b", "c", "d"]
    history = [("a", "b"), ("c", "d")]
    assert pair_round(people, history, standing=people) == [("a", "c"), ("b", "d")]
    # a-c then b-d would be a rematch for b and d: a takes d instead so everyone has an opponent.
    history = [("a", "b"), ("b", "d"), ("c", "a")]
    assert pair_round(people, history, standing=people) == [("a", "d"), ("b", "c")]


def test_the_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    people = ["a", "b", "c", "d", "e"]
    assert pair_round(people, standing=people)[0] == ("e", None)
    assert pair_round(people, [("e", None)], standing=people)[0] == ("d", None)
    everyone_once = [(p, None) for p in people]
    assert pair_round(people, everyone_once, standing=people)[0] == ("e", None)


def test_entrants_missing_from_the_standing_come_after_it_and_withdrawn_are_ignored() -> None:
    people = ["a", "b", "c", "d"]
    assert pair_round(people, standing=["d", "x"]) == [("d", "a"), ("b", "c")]
    assert pair_round(people, [("d", "x"), ("x", None)], standing=["d"]) == [("d", "a"), ("b", "c")]


def test_refusals() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_round(["a", "a"])
    with pytest.raises(ValueError, match="two"):
        pair_round(["a"])
    with pytest.raises(ValueError, match="method"):
        pair_round(["a", "b"], method="swiss")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rng"):
        pair_round(["a", "b"], method="random")
