"""The turn timer and quick messages: the timer moves for a player whose time ran out, three
timeouts forfeit the game, no timer means no timeout; quick messages reach the table, rate limited, and
the view answers 429 with a readable line."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import broadcast, services
from games.play.models import Game, Move
from tests.play.factories import (
    act,
    as_form,
    away_for,
    forfeit_on_time,
    human_game,
    load,
    make_user,
    random_action,
)
from tests.play.online_support import (
    HTMX,
    _beats_on_the_rows,  # noqa: F401  autouse: the socket rows are the beats
    _clear_cache,  # noqa: F401  autouse: an empty cache
    )

pytestmark = pytest.mark.django_db


# --- the turn timer -----------------------------------------------------------------------------


def _timed_game(alice, bob, seconds=30):
    seek = services.game_create_seek(user=alice, rules=HouseRules(), turn_timer=seconds)
    return services.game_accept(user=bob, game_id=seek.pk)


def test_the_timer_moves_for_the_player_when_it_runs_out(alice, bob):
    game = _timed_game(alice, bob)
    with pytest.raises(services.NotAvailable, match="still time"):
        services.game_timeout(user=alice, game_id=game.pk)
    away_for(game, 31)
    services.game_timeout(user=alice, game_id=game.pk)
    state = load(game)
    # Both cuts were made for the players; equal ranks (one deck in thirteen or so) mean cut again.
    tie = state.cut_cards[0].rank == state.cut_cards[1].rank
    assert state.phase == ("cut" if tie else "discard")
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert len(moves) == 2 and all(m.by_timeout for m in moves)
    assert all(m.note["kind"] == "timeout" and m.note["action"] == "cut_for_deal" for m in moves)
    assert [s.timeouts for s in game.seats.order_by("index")] == [1, 1]


def test_three_timeouts_forfeit_the_game(alice, bob):
    import random

    rng = random.Random(3)
    game = _timed_game(alice, bob)
    for expected in (1, 2, 3):
        # Alice answers at once; Bob lets his clock run out on each of his decisions.
        for _ in range(20):
            state = load(game)
            if 1 in state.to_act and (0 not in state.to_act or state.phase in ("cut", "discard")):
                if 0 in state.to_act:
                    act(game, alice, as_form(random_action(state, 0, rng)))
                break
            act(game, alice, as_form(random_action(state, 0, rng)))
        away_for(game, 31)
        services.game_timeout(user=alice, game_id=game.pk)
        game.refresh_from_db()
        assert game.seats.get(user=bob).timeouts == expected
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    assert [m.by_timeout for m in Move.objects.filter(game=game, seat=1)].count(True) == 3


def test_a_forfeit_after_the_third_timeout_goes_to_the_other_player(alice, bob):
    game = forfeit_on_time(alice, bob)
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    last = Move.objects.filter(game=game).latest("seq").note
    assert (last["kind"], last["action"], last["timeouts"]) == ("timeout", "resign", 3)


def test_no_timer_means_no_timeout(alice, bob):
    game = human_game(alice, bob)
    away_for(game, 10_000)
    with pytest.raises(services.NotAvailable):
        services.game_timeout(user=alice, game_id=game.pk)


def test_the_timeout_view_is_quiet_when_the_other_page_was_first(alice, bob):
    game = _timed_game(alice, bob)
    c = Client()
    c.force_login(bob)
    response = c.post(reverse("timeout", args=[game.pk]), headers=HTMX)
    assert response.status_code == 200 and "board-error" not in response.content.decode()


# --- quick messages -----------------------------------------------------------------------------


def test_quick_messages_reach_the_table_and_are_rate_limited(alice, bob, monkeypatch):
    game = human_game(alice, bob)
    sent = []
    monkeypatch.setattr(broadcast, "game_chat", lambda *args: sent.append(args))
    for _ in range(3):
        services.game_say(user=alice, game_id=game.pk, message="good_luck")
    assert sent == [(game.pk, 0, "good_luck")] * 3
    with pytest.raises(services.RateLimited):
        services.game_say(user=alice, game_id=game.pk, message="good_luck")
    services.game_say(user=bob, game_id=game.pk, message="thanks")  # Bob has his own allowance
    with pytest.raises(services.ServiceError, match="quick messages"):
        services.game_say(user=bob, game_id=game.pk, message="<script>")
    with pytest.raises(services.NotAPlayer):
        services.game_say(user=make_user("carol"), game_id=game.pk, message="hello")


def test_the_say_view_answers_429_with_a_readable_line(alice, bob):
    game = human_game(alice, bob)
    c = Client()
    c.force_login(alice)
    url = reverse("say", args=[game.pk])
    for _ in range(3):
        assert c.post(url, {"message": "hello"}, headers=HTMX).status_code == 204
    response = c.post(url, {"message": "hello"}, headers=HTMX)
    assert response.status_code == 429 and "wait a few seconds" in response.content.decode()
