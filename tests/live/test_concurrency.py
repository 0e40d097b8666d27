"""Moves that arrive at the same moment: each is applied once or refused cleanly, never half-done.

Every worker is a thread with its own database connection, released together by a barrier, so
the requests really meet in ``games.play.services`` (the row lock on PostgreSQL, ``BEGIN IMMEDIATE`` and
the compare-and-set on SQLite). Some go through the HTTP view (Django's test client, with htmx's
header), some call the service directly. Whatever happens, the Move log stays 1..n and replays to
``Game.state``.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.db import connections
from django.test import Client

from games.engine import game as engine
from games.engine.actions import CutForDeal, Discard, Go, NextDeal, Play, action_from_dict
from games.engine.cards import DECK
from games.engine.errors import IllegalAction
from games.play import services
from games.play.models import Game, Move
from tests.live.support import (
    SHORT_GAME,
    as_form,
    assert_log_is_whole,
    board_version,
    choose,
    load,
    two_players,
)
from tests.play.factories import acting_at_once, fixed_secrets, logged_in, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

HTMX = {"HX-Request": "true"}
# 409, 422, 409; and a move made already from that board, sent again (200, marked as a replay).
CLEAN_REFUSALS = (services.StaleVersion, services.IllegalMove, services.NotAvailable, services.AlreadyMade)
CLEAN_STATUSES = {409, 422}
MAX_STEPS = 400
TASK_SECONDS = 30


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "live-concurrency")


@pytest.fixture(autouse=True)
def _no_rate_limit(settings):
    # A bot-stopper (600 moves a minute per user) is not what these bursts are about.
    settings.RATE_LIMIT_MOVES = "off"


@pytest.fixture
def slow_engine(monkeypatch):
    """Hold each move (and each start of a game) inside its transaction a little longer, so rivals
    surely queue behind it."""
    for name in ("apply", "new_game"):
        original = getattr(engine, name)

        def slow(*args, _original=original, **kwargs):
            time.sleep(0.03)
            return _original(*args, **kwargs)

        monkeypatch.setattr(engine, name, slow)


# --- a crew of threads, each with its own connection ------------------------------------------


@dataclass
class Result:
    ok: bool
    refusal: str = ""  # the ServiceError class name, or the HTTP status
    version: int | None = None  # the version the move made, when applied
    error: BaseException | None = None  # anything else: always a failure


@dataclass
class RacerResult(Result):
    applied: list[int] = field(default_factory=list)  # versions this racer's moves made
    refused: dict[str, int] = field(default_factory=dict)


class Crew:
    """``size`` worker threads. ``run(tasks)`` hands one task to each, lets them all go at once
    (a barrier) and returns their results in order."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.inboxes: list[queue.Queue] = [queue.Queue() for _ in range(size)]
        self.results: queue.Queue = queue.Queue()
        self.barrier = threading.Barrier(size)
        self.threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(size)]
        for t in self.threads:
            t.start()

    def _work(self, index: int) -> None:
        try:
            while True:
                task = self.inboxes[index].get()
                if task is None:
                    return
                try:
                    self.barrier.wait(timeout=TASK_SECONDS)
                    result = task()
                except BaseException as exc:  # noqa: BLE001 - reported by the test, never swallowed
                    result = Result(False, refusal=type(exc).__name__, error=exc)
                self.results.put((index, result))
        finally:
            connections.close_all()  # this thread's connections only

    def run(self, tasks: list[Callable[[], Result]]) -> list[Result]:
        assert len(tasks) == self.size
        for inbox, task in zip(self.inboxes, tasks, strict=True):
            inbox.put(task)
        out: list[Result | None] = [None] * self.size
        for _ in range(self.size):
            index, result = self.results.get(timeout=TASK_SECONDS)
            out[index] = result
        return out  # type: ignore[return-value]

    def stop(self) -> None:
        for inbox in self.inboxes:
            inbox.put(None)
        for t in self.threads:
            t.join(timeout=TASK_SECONDS)


@pytest.fixture
def crew_of():
    crews: list[Crew] = []

    def make(size: int) -> Crew:
        crews.append(Crew(size))
        return crews[-1]

    yield make
    for crew in crews:
        crew.stop()


def by_service(user, game_id: int, version: int, form: dict) -> Callable[[], Result]:
    def task() -> Result:
        try:
            outcome = services.game_act(user=user, game_id=game_id, version=version, action=form)
        except CLEAN_REFUSALS as exc:
            return Result(False, refusal=type(exc).__name__)
        return Result(True, version=outcome.game.version)

    return task


def by_client(client: Client, game_id: int, version: int, form: dict) -> Callable[[], Result]:
    def task() -> Result:
        response = client.post(f"/games/{game_id}/act/", {"version": version, **form}, headers=HTMX)
        html = response.content.decode()
        if response.status_code == 200 and response.get("Idempotent-Replayed") == "true":
            # The same move, made already from that board: answered with the board, not made again.
            assert 'id="board"' in html and 'class="board-error"' not in html, html[:300]
            return Result(False, refusal="replayed")
        if response.status_code == 200:
            return Result(True, version=_board_version(html))
        if response.status_code in CLEAN_STATUSES:
            assert 'id="board"' in html and 'class="board-error"' in html, html[:300]
            return Result(False, refusal=str(response.status_code))
        return Result(False, refusal=str(response.status_code), error=AssertionError(html[:500]))

    return task


def _board_version(html: str) -> int:
    version = board_version(html)
    assert version is not None, html[:300]
    return version


def assert_clean(results: list[Result]) -> None:
    errors = [r.error for r in results if r.error is not None]
    if errors:
        raise AssertionError(f"{len(errors)} request(s) failed other than by a clean refusal") from errors[0]


# --- the same move twice at once (a double click, two tabs) -----------------------------------


@pytest.mark.slow
def test_the_same_move_sent_twice_at_once_is_applied_once_all_through_a_game(crew_of, slow_engine):
    game, alice, bob = two_players()
    users = {0: alice, 1: bob}
    clients = {0: logged_in(alice), 1: logged_in(bob)}
    crew = crew_of(2)
    rng = random.Random(11)
    refusals: set[str] = set()
    for step in range(MAX_STEPS):
        state = load(game)
        if game.status != Game.Status.ACTIVE:
            break
        seat = min(state.to_act)
        form = as_form(choose(state, seat, rng))
        before = Move.objects.filter(game=game).count()
        # Both by the service, both through the view, or one of each.
        kinds = [(by_service, by_service), (by_client, by_client), (by_service, by_client)][step % 3]
        results = crew.run(
            [
                kind(users[seat] if kind is by_service else clients[seat], game.pk, game.version, form)
                for kind in kinds
            ]
        )
        assert_clean(results)
        assert sorted(r.ok for r in results) == [False, True], (step, form, results)
        refused = next(r for r in results if not r.ok)
        applied = next(r for r in results if r.ok)
        game.refresh_from_db()
        # The twin is the move made already: answered with the board, never made a second time.
        assert refused.refusal in ("AlreadyMade", "replayed"), (step, form, results)
        refusals.add(refused.refusal)
        assert applied.version == game.version
        assert Move.objects.filter(game=game).count() == before + 1, f"step {step}: {form} applied twice"
    else:
        pytest.fail("the game did not end")
    assert game.status == Game.Status.FINISHED
    assert {"AlreadyMade", "replayed"} <= refusals
    assert_log_is_whole(game)


# --- the seek: two takers at once, or a taker and a withdrawal -----------------------------------


@pytest.mark.parametrize("rival", ["accept", "withdraw"])
@pytest.mark.parametrize("path", ["service", "client"])
def test_a_seek_is_taken_once_when_two_grab_it_together(crew_of, slow_engine, rival, path):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    seek = services.game_create_seek(user=alice, rules=SHORT_GAME)
    first, second = (bob, "accept"), ((carol, "accept") if rival == "accept" else (alice, "withdraw"))

    def grab(user, what: str) -> Callable[[], Result]:
        if path == "client":
            client = logged_in(user)

            def by_view() -> Result:
                response = client.post(f"/games/{seek.pk}/{what}/")
                assert response.status_code == 302, response.status_code
                return Result(
                    response.url == f"/games/{seek.pk}/"
                    if what == "accept"
                    else Game.objects.get(pk=seek.pk).status == Game.Status.ABORTED
                )

            return by_view

        def by_service() -> Result:
            do = services.game_accept if what == "accept" else services.game_withdraw
            try:
                do(user=user, game_id=seek.pk)
            except services.NotAvailable as exc:
                return Result(False, refusal=type(exc).__name__)
            return Result(True)

        return by_service

    results = crew_of(2).run([grab(*first), grab(*second)])
    assert_clean(results)
    seek.refresh_from_db()
    seats = list(seek.seats.values_list("index", "user__username"))
    if seek.status == Game.Status.ACTIVE:
        assert seats in ([(0, "alice"), (1, "bob")], [(0, "alice"), (1, "carol")])
        assert seek.version == 1 and seek.state is not None
    else:
        assert seek.status == Game.Status.ABORTED and seats == [(0, "alice")]
    assert sorted(r.ok for r in results) == [False, True], results


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
