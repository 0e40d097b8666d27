"""The same thing asked twice at the same moment: the same move sent twice at once all through a game
(a double click, two tabs; by the service, through the view, or one of each) is applied once and the
twin answered as made; a seek grabbed by two takers, or by a taker and its withdrawal, is taken once.
Whatever happens, the Move log stays 1..n and replays to ``Game.state`` (``tests/live/crew.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from games.play import services
from games.play.models import Game, Move
from tests.live.crew import (
    MAX_STEPS,
    Result,
    _no_rate_limit,  # noqa: F401  autouse: no limit on moves
    _secrets,  # noqa: F401  autouse: games dealt from the "live-concurrency" secrets
    assert_clean,
    by_client,
    by_service,
)
from tests.live.support import SHORT_GAME, as_form, assert_log_is_whole, choose, load, two_players
from tests.play.factories import logged_in, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


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
