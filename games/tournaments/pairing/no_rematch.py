"""Qualifying rounds of a fixed number of games, each against a different opponent (the ACC's
format; "Swiss-like"): each round is paired from the rounds before it, never a rematch.

``pair_round`` pairs the next round by standing (the top player against the best one they have not
met, and so on down) or at random; in an odd field the bye goes to a player with the fewest byes so
far. Whenever the whole field can be paired without a rematch, it is: a choice that would leave
someone without a legal opponent further down is never made.

>>> history = pair_round(["a", "b", "c", "d"])
>>> history
[('a', 'b'), ('c', 'd')]
>>> pair_round(["a", "b", "c", "d"], history, standing=["a", "c", "b", "d"])
[('a', 'c'), ('b', 'd')]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Literal, TypeVar

P = TypeVar("P", bound=Hashable)

Method = Literal["standing", "random"]


class PairingError(ValueError):
    """The round cannot be paired without a rematch; the message is meant for the director."""


def max_rounds(n: int) -> int:
    """The most rounds a field of ``n`` can play without a rematch: ``n - 1`` for an even field
    (by then everyone has met everyone), ``n`` for an odd one (each also sits out once on a bye).

    Round-by-round pairing is only sure to reach ``safe_rounds(n)`` of them; a round robin
    (``round_robin``) plays all of them.

    >>> [max_rounds(n) for n in (1, 2, 3, 4, 9, 10)]
    [0, 1, 3, 3, 9, 9]
    """
    if n < 2:
        return 0
    return n if n % 2 else n - 1


def safe_rounds(n: int) -> int:
    """How many rounds ``pair_round`` can always pair for a field of ``n`` whatever the results
    and choices before (half the field, rounded up).

    Why: with the bye to a player with the fewest byes, after ``r`` rounds every entrant (and the
    bye, for an odd field) still has exactly ``n - r`` (``n - 1 - r`` for an even field) possible
    opponents, and a graph in which everyone has at least half the others as neighbours has a
    perfect matching (Dirac). Past this the rounds before can leave no rematch-free pairing: six
    players whose first three rounds were the two halves meeting each other are left with two
    triangles. The same fixed field is assumed: a withdrawal changes the count.

    >>> [safe_rounds(n) for n in (1, 2, 3, 6, 7, 64, 256)]
    [0, 1, 2, 3, 4, 32, 128]
    """
    return (n + 1) // 2 if n >= 2 else 0


def pair_round(
    entrants: Sequence[P],
    history: Iterable[tuple[P, P | None]] = (),
    *,
    standing: Sequence[P] | None = None,
    method: Method = "standing",
    rng: random.Random | None = None,
) -> list[tuple[P, P | None]]:
    """The pairs of the next round: ``(a, b)`` for a match, ``(a, None)`` for the bye (first).

    ``entrants`` are the players to pair, in seed order; ``history`` the pairs of the rounds
    before, byes included, as this function returns them (pairs naming someone not entered are
    ignored). Nobody meets an opponent again, and in an odd field the bye goes to a player with
    the fewest byes so far, so nobody has a second bye while anyone has none.

    ``method="standing"``: players are taken in ``standing`` order (best first; entrants it does
    not list follow in seed order). The bye goes to the lowest-standing player who can have it,
    then the best unpaired player meets the best one they have not met, and so on down, each
    choice the first that still lets the rest of the field be paired; matches are listed top
    table first, the better-placed player first.

    ``method="random"``: the same from an order shuffled by ``rng`` (a ``random.Random``, so a
    seed replays the draw), the bye to a random player among those with the fewest. Every legal
    pairing can come out, though not all equally often.

    Raises ``PairingError`` when no pairing of the whole field avoids a rematch.

    >>> pair_round(["a", "b", "c"], [("a", "b"), ("c", None)], standing=["b", "a", "c"])
    [('a', None), ('b', 'c')]
    >>> pair_round(["a", "b", "c", "d"], [("a", "b"), ("c", "d"), ("a", "c"), ("b", "d")],
    ...            standing=["a", "b", "c", "d"])
    [('a', 'd'), ('b', 'c')]
    >>> pair_round(list("abcde"), method="random", rng=random.Random(1))
    [('c', None), ('d', 'e'), ('a', 'b')]
    >>> try:
    ...     pair_round(["a", "b"], [("a", "b")])
    ... except PairingError as refused:
    ...     print(refused)
    Round cannot be paired without a rematch: a and b have already met every other entrant.
    """
    people = list(entrants)
    n = len(people)
    if len(set(people)) != n:
        raise ValueError("an entrant is listed twice")
    if n < 2:
        raise ValueError("a round needs at least two entrants")
    if method not in ("standing", "random"):
        raise ValueError('the pairing method is "standing" or "random"')
    if method == "random" and rng is None:
        raise ValueError("random pairing needs an rng, a random.Random(seed), so the draw can be replayed")
    index = {p: i for i, p in enumerate(people)}
    met: list[set[int]] = [set() for _ in range(n)]
    bye_count = [0] * n
    for a, b in history:
        if a not in index:
            continue
        if b is None:
            bye_count[index[a]] += 1
        elif b in index:
            met[index[a]].add(index[b])
            met[index[b]].add(index[a])

    if method == "standing":
        listed = list(dict.fromkeys(p for p in standing or () if p in index))
        seen = set(listed)
        priority = [index[p] for p in listed] + [i for i, p in enumerate(people) if p not in seen]
    else:
        assert rng is not None  # refused above; this tells the type checker
        priority = list(range(n))
        rng.shuffle(priority)

    # An odd field pairs one player with a phantom vertex, the bye, allowed only to the fewest byes.
    bye = n if n % 2 else -1
    eligible: list[int] = []
    if bye >= 0:
        fewest = min(bye_count)
        eligible = [v for v in priority if bye_count[v] == fewest]
        if method == "standing":
            eligible.reverse()  # the lowest-standing player first
        elif rng is not None:
            rng.shuffle(eligible)
    can_bye = set(eligible)

    def candidates(v: int) -> list[int]:
        """Whom ``v`` may be paired with, most wanted first."""
        if v == bye:
            return eligible
        return [u for u in priority if u != v and u not in met[v]] + ([bye] if v in can_bye else [])

    order = ([bye] if bye >= 0 else []) + priority
    chosen = _greedy(order, priority, met, eligible, bye)
    if 2 * len(chosen) < len(order):
        # Greedy choices got someone stuck. The answer keeps the longest run of them that the rest
        # can still complete (usually all but the last few), found by checking ever shorter runs.
        def rest(j: int) -> list[int]:
            taken = {x for pair in chosen[:j] for x in pair}
            return [v for v in order if v not in taken]

        def completable(j: int) -> bool:
            return _perfect_matching(_subgraph(rest(j), candidates)) is not None

        good, bad, step = -1, len(chosen), 1
        while good < 0:
            j = max(0, bad - step)
            if completable(j):
                good = j
            elif j == 0:
                raise PairingError(_why(people, candidates, bye))
            else:
                bad, step = j, 2 * step
        while bad - good > 1:
            mid = (good + bad) // 2
            good, bad = (mid, bad) if completable(mid) else (good, mid)
        chosen = chosen[:good] + _first_pairing(rest(good), candidates)
    return [(people[u], None) if v == bye else (people[v], people[u]) for v, u in chosen]


def _greedy(
    order: list[int], priority: list[int], met: list[set[int]], eligible: list[int], bye: int
) -> list[tuple[int, int]]:
    """Each in turn takes the first still free who is allowed, until someone has nobody left.
    When everyone is paired this is the answer: no choice before was anything but the first."""
    position = {v: i for i, v in enumerate(priority)}
    taken = [False] * len(order)
    pairs: list[tuple[int, int]] = []
    for v in order:
        if taken[v]:
            continue
        if v == bye:
            u = eligible[0]
        else:
            # Everyone ranked above v is already paired: look below it only.
            u = next((w for w in priority[position[v] + 1 :] if not taken[w] and w not in met[v]), -1)
            if u < 0:
                break
        taken[v] = taken[u] = True
        pairs.append((v, u))
    return pairs


def _subgraph(vertices: list[int], candidates: Callable[[int], list[int]]) -> list[list[int]]:
    """The allowed pairs among ``vertices``, renumbered by their place in it, in preference order."""
    local = {v: i for i, v in enumerate(vertices)}
    return [[local[u] for u in candidates(v) if u in local] for v in vertices]


def _first_pairing(vertices: list[int], candidates: Callable[[int], list[int]]) -> list[tuple[int, int]]:
    """The first complete pairing of ``vertices`` taking each in turn with its first partner that
    leaves the rest completable (the caller knows one exists)."""
    adj = _subgraph(vertices, candidates)
    match = _perfect_matching(adj)
    assert match is not None
    gone = [False] * len(vertices)
    pairs = []
    for v in range(len(vertices)):
        if gone[v]:
            continue
        # The current matching pairs v, so one of these always works: at worst its partner in it.
        u = next(u for u in adj[v] if not gone[u] and _can_pair(v, u, adj, match, gone))
        pairs.append((vertices[v], vertices[u]))
    return pairs


def _why(people: Sequence[Hashable], candidates: Callable[[int], list[int]], bye: int) -> str:
    n = len(people)
    stuck = [str(people[v]) for v in range(n) if not candidates(v)]
    if stuck:
        if len(stuck) > 6:
            stuck = [*stuck[:5], f"{len(stuck) - 5} others"]
        names = f"{', '.join(stuck[:-1])} and {stuck[-1]}" if len(stuck) > 1 else stuck[0]
        verb = "have" if len(stuck) > 1 else "has"
        extra = ", and cannot have another bye" if bye >= 0 else ""
        return (
            f"Round cannot be paired without a rematch: {names} {verb} already met every other "
            f"entrant{extra}."
        )
    return (
        f"Round cannot be paired without a rematch: the {n} entrants' opponents so far leave no way to "
        f"pair them all. A field of {n} can play at most {max_rounds(n)} rounds without one, and pairing "
        f"round by round is sure of only {safe_rounds(n)}; for more, play a round robin."
    )


# --- maximum matching (Edmonds' blossoms) ---------------------------------------------------------
# Pairings are found in a general graph (players, the bye, and an edge for each allowed match), so
# odd cycles need blossoms; a bipartite matching would miss pairings and claim none exist.


def _perfect_matching(adj: list[list[int]]) -> list[int] | None:
    """A perfect matching (partner of each vertex) or None if there is none."""
    size = len(adj)
    match = [-1] * size
    for v in range(size):
        if match[v] == -1:
            u = next((u for u in adj[v] if match[u] == -1), -1)
            if u >= 0:
                match[v], match[u] = u, v
    gone = [False] * size
    for v in range(size):
        # Were there a perfect matching, every free vertex would start an augmenting path (its
        # part of the symmetric difference with that matching): one failure proves there is none.
        if match[v] == -1 and not _augment(v, adj, match, gone):
            return None
    return match


def _can_pair(v: int, u: int, adj: list[list[int]], match: list[int], gone: list[bool]) -> bool:
    """Fix ``v`` with ``u`` if the rest can still be paired, keeping ``match`` perfect."""
    if match[v] == u:
        gone[v] = gone[u] = True
        return True
    a, b = match[v], match[u]
    gone[v] = gone[u] = True
    match[a] = match[b] = -1
    # The rest is paired but for a and b: it can be completed exactly when a path joins them.
    if _augment(a, adj, match, gone):
        match[v], match[u] = u, v
        return True
    gone[v] = gone[u] = False
    match[v], match[a], match[u], match[b] = a, v, b, u
    return False


def _augment(root: int, adj: list[list[int]], match: list[int], gone: list[bool]) -> bool:
    """Search for an augmenting path from the free vertex ``root`` and apply it if found."""
    size = len(match)
    used = [False] * size
    parent = [-1] * size
    base = list(range(size))
    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if gone[to] or base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                # An odd cycle: shrink it to its base and search on from all of it.
                cur = _common_base(v, to, base, match, parent)
                blossom = [False] * size
                _mark_path(v, cur, to, base, match, parent, blossom)
                _mark_path(to, cur, v, base, match, parent, blossom)
                for i in range(size):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:
                        pv = parent[to]
                        nxt = match[pv]
                        match[to], match[pv] = pv, to
                        to = nxt
                    return True
                used[match[to]] = True
                queue.append(match[to])
    return False


def _common_base(a: int, b: int, base: list[int], match: list[int], parent: list[int]) -> int:
    seen = set()
    while True:
        a = base[a]
        seen.add(a)
        if match[a] == -1:
            break
        a = parent[match[a]]
    while True:
        b = base[b]
        if b in seen:
            return b
        b = parent[match[b]]


def _mark_path(
    v: int, b: int, child: int, base: list[int], match: list[int], parent: list[int], blossom: list[bool]
) -> None:
    while base[v] != b:
        blossom[base[v]] = blossom[base[match[v]]] = True
        parent[v] = child
        child = match[v]
        v = parent[match[v]]
