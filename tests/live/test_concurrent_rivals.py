"""Different moves that arrive at the same moment: eight moves, legal and not, at one version apply
exactly one (one per seat where all act at once) and refuse the rest cleanly; eight racing threads
play a whole game. Whatever happens, the Move log stays 1..n and replays to ``Game.state``
(``tests/live/crew.py``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

from games.engine import game as engine
from games.engine.actions import CutForDeal, Discard, Go, NextDeal, Play, action_from_dict
from games.engine.cards import DECK
from games.engine.errors import IllegalAction
from games.play import services
from games.play.models import Game, Move
from tests.live.crew import (
    CLEAN_REFUSALS,
    MAX_STEPS,
    RacerResult,
    Result,
    _no_rate_limit,  # noqa: F401  autouse: no limit on moves
    _secrets,  # noqa: F401  autouse: games dealt from the "live-concurrency" secrets
    assert_clean,
    by_client,
    by_service,
)
from tests.live.support import as_form, assert_log_is_whole, choose, load, two_players
from tests.play.factories import acting_at_once, logged_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


# --- eight different moves, legal and not, at one version ------------------------------------


def is_legal(state, seat: int, form: dict) -> bool:
    try:
        engine.apply(state, action_from_dict({**form, "seat": seat}))
    except (ValueError, IllegalAction):
        return False
    return True


def rivals(state, rng: random.Random, *, junk_only: bool = False) -> list[tuple[int, dict]]:
    """Eight (seat, form) pairs for one moment: some legal moves by whoever may act and refusable
    ones; or, with ``junk_only``, none that is legal."""
    seat_due = min(state.to_act)
    other = 1 - seat_due
    wrong_card = next(c for c in DECK if c not in state.hands[other])
    junk = [
        (other, as_form(Play(other, wrong_card))),  # a card not held (or not the phase)
        (other, {"type": "cut_for_deal", "position": "x"}),
        (seat_due, {"type": "play", "card": "ZZ"}),
        (seat_due, {"type": "no-such-move"}),
        (other, as_form(Discard(other, state.hands[other][:1]))),  # one card, not two
        (seat_due, as_form(CutForDeal(seat_due, 99))),
        (other, as_form(Go(other))),
        (seat_due, as_form(NextDeal(seat_due))),  # legal in the show
    ]
    rng.shuffle(junk)
    if junk_only:
        junk = [(seat, form) for seat, form in junk if not is_legal(state, seat, form)]
        return (junk * 2)[:8]
    legal = [(s, as_form(a)) for s in state.to_act for a in engine.legal_actions(state, s)]
    return (rng.sample(legal, min(3, len(legal))) + junk)[:8]


@pytest.mark.slow
def test_eight_different_moves_at_one_version_apply_exactly_one(crew_of):
    """Every fifth moment, eight moves none of which is legal: all refused as illegal, nothing
    changes. Otherwise some legal ones among them, and two of the eight sent at the previous version
    (a lagging tab): exactly one move is applied (one per seat where all act at once), each recorded once."""
    game, alice, bob = two_players()
    users = {0: alice, 1: bob}
    clients = {0: logged_in(alice), 1: logged_in(bob)}
    crew = crew_of(8)
    rng = random.Random(8)
    seen: dict[str, int] = {}
    for step in range(MAX_STEPS):
        state = load(game)
        if game.status != Game.Status.ACTIVE:
            break
        version, before = game.version, Move.objects.filter(game=game).count()
        junk_only = step % 5 == 4
        candidates = rivals(state, rng, junk_only=junk_only)
        tasks = []
        for i, (seat, form) in enumerate(candidates):
            seen_version = version - 1 if i >= 6 and not junk_only else version
            if i % 2:  # odd ones through the view, even ones straight to the service
                tasks.append(by_client(clients[seat], game.pk, seen_version, form))
            else:
                tasks.append(by_service(users[seat], game.pk, seen_version, form))
        results = crew.run(tasks)
        assert_clean(results)
        for r in results:
            seen[r.refusal or "applied"] = seen.get(r.refusal or "applied", 0) + 1
        game.refresh_from_db()
        if junk_only:
            refusals = [r.refusal for r in results]
            assert set(refusals) == {"IllegalMove", "422"}, (step, candidates, refusals)
            assert game.version == version and Move.objects.filter(game=game).count() == before
            continue
        winners = [c for c, r in zip(candidates, results, strict=True) if r.ok]
        if acting_at_once(state):
            # Everyone cuts, lays away and asks for the next hand at once: one move per seat may
            # apply (services.SIMULTANEOUS_ACTIONS), even one sent at the version before another seat's.
            assert 1 <= len(winners) == len({seat for seat, _ in winners}), (step, candidates, results)
        else:
            assert len(winners) == 1, (step, candidates, results)
            # At an old version: refused (NotAvailable when the winning move just ended the game),
            # or, when it is the very move its seat made from that version, answered as made.
            for i, refusals in ((6, ("StaleVersion", "NotAvailable")), (7, ("409",))):
                if results[i].refusal in ("AlreadyMade", "replayed"):
                    seat, form = candidates[i]
                    since = Move.objects.filter(game=game, seat=seat, seq__gte=version - 1)
                    made = [m.action for m in since]
                    assert {**_full(form), "seat": seat} in made, (i, candidates[i], results[i], made)
                else:
                    assert results[i].refusal in refusals, (i, results[i])
        assert game.version == version + len(winners)
        moves = list(Move.objects.filter(game=game, seq__gt=before).order_by("seq"))
        assert sorted((m.seat, m.action) for m in moves) == sorted(
            (seat, {**_full(form), "seat": seat}) for seat, form in winners
        )
    else:
        pytest.fail("the game did not end")
    assert game.status == Game.Status.FINISHED
    assert {"StaleVersion", "IllegalMove", "409", "422"} <= set(seen), seen
    assert_log_is_whole(game)


def _full(form: dict) -> dict:
    """A form as the Move log stores the action (cut positions as numbers)."""
    out = dict(form)
    if "position" in out:
        out["position"] = int(out["position"])
    return out


# --- players racing freely --------------------------------------------------------------------


def test_eight_racing_threads_play_a_whole_game_with_a_whole_log(crew_of):
    """Four threads per player, each reading the board and moving whenever it can, as fast as it can."""
    game, alice, bob = two_players()
    users = {0: alice, 1: bob}
    game_id = game.pk
    crew = crew_of(8)
    deadline = time.monotonic() + 120

    def racer(index: int) -> Callable[[], Result]:
        seat, rng = index % 2, random.Random(100 + index)

        def task() -> Result:
            applied: list[int] = []
            refused: dict[str, int] = {}
            for _ in range(600):
                if time.monotonic() > deadline:
                    break
                g = Game.objects.get(pk=game_id)
                if g.status != Game.Status.ACTIVE:
                    break
                state = services.load_state(g)
                if seat in state.to_act:
                    form = as_form(choose(state, seat, rng))
                else:  # not this player's turn: try anyway, with whatever is in hand
                    form = as_form(Play(seat, rng.choice(DECK)))
                try:
                    outcome = services.game_act(
                        user=users[seat], game_id=game_id, version=g.version, action=form
                    )
                except CLEAN_REFUSALS as exc:  # NotAvailable: the game ended after the read
                    refused[type(exc).__name__] = refused.get(type(exc).__name__, 0) + 1
                else:
                    applied.append(outcome.game.version)
            return RacerResult(True, applied=applied, refused=refused)

        return task

    results = crew.run([racer(i) for i in range(8)])
    assert_clean(results)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, "the racing players did not finish within the bounds"
    applied = sorted(v for r in results for v in r.applied)
    moves = Move.objects.filter(game=game).count()
    # Each applied move made its own version, one after another from the accept (version 1).
    assert applied == list(range(2, game.version + 1))
    assert len(applied) == moves
    assert sum(sum(r.refused.values()) for r in results) > 0  # moves out of turn, at least
    assert_log_is_whole(game)
