"""Online-play extras: abort, presence and claiming the win, the turn timer, quick messages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from games.engine.rules import HouseRules
from games.play import broadcast, presence, services
from games.play.board.player import render_board_oob
from games.play.models import Connection, Game, Move
from tests.play.factories import (
    act,
    as_form,
    away_for,
    computer_game,
    forfeit_on_time,
    human_game,
    load,
    logged_in,
    make_user,
    random_action,
)

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}




@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


@pytest.fixture(autouse=True)
def _beats_on_the_rows(settings):
    """These tests set a socket's row back in time to stand for a player gone; with Redis the beats
    live in the cache instead (tests/play/test_presence_cache.py tests that way), so here the row
    is the beat on both databases."""
    settings.PRESENCE_IN_CACHE = False


def _cut(game, alice, bob):
    act(game, alice, {"type": "cut_for_deal", "position": 3})
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    return load(game)


def _to_play(game, users):
    """Cut and discard so that the first card is due."""
    import random

    rng = random.Random(5)
    for _ in range(10):
        state = load(game)
        if state.phase == "play":
            return state
        seat = state.to_act[0]
        act(game, users[seat], as_form(random_action(state, seat, rng)))
    raise AssertionError("never reached the play")


# --- abort --------------------------------------------------------------------------------------


def test_either_player_may_abort_before_the_first_card(alice, bob):
    game = human_game(alice, bob)
    _cut(game, alice, bob)
    services.game_abort(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.winner_seat is None


def test_no_abort_once_a_card_is_played(alice, bob):
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    seat = state.turn
    act(game, {0: alice, 1: bob}[seat], as_form(random_action(state, seat, __import__("random").Random(1))))
    with pytest.raises(services.NotAvailable, match="no longer abort"):
        services.game_abort(user=alice, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_stranger_cannot_abort(alice, bob):
    game = human_game(alice, bob)
    with pytest.raises(services.NotAPlayer):
        services.game_abort(user=make_user("carol"), game_id=game.pk)


def test_abort_view_sends_htmx_to_the_lobby(alice, bob):
    game = human_game(alice, bob)
    c = Client()
    c.force_login(alice)
    response = c.post(reverse("abort", args=[game.pk]), headers=HTMX)
    assert response.status_code == 204 and response["HX-Redirect"] == reverse("lobby")
    assert "Game called off: it does not count." in c.get(reverse("lobby")).content.decode()


def test_a_rated_game_can_be_called_off_before_the_deal_only(alice, bob):
    game = human_game(alice, bob, rated=True)
    act(game, alice, {"type": "cut_for_deal", "position": 3})  # bob has not cut: no cards are dealt
    assert services.abort_refusal(Game.objects.get(pk=game.pk), load(game)) == ""
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    game.refresh_from_db()
    board = logged_in(bob).get(reverse("game", args=[game.pk])).content.decode()
    assert reverse("abort", args=[game.pk]) not in board  # bob has seen his hand
    with pytest.raises(services.NotAvailable, match="only before the deal; you can resign"):
        services.game_abort(user=bob, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    casual = human_game(alice, bob)
    _cut(casual, alice, bob)
    services.game_abort(user=bob, game_id=casual.pk)  # a casual game: until the first card


def test_the_other_player_is_told_the_game_was_called_off(alice, bob, monkeypatch):
    game = human_game(alice, bob)
    _cut(game, alice, bob)
    pushed = []
    monkeypatch.setattr(broadcast, "game_changed", lambda game_id, version, **kw: pushed.append(version))
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.game_abort(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert pushed == [game.version]  # alice's open page is redrawn
    for html in (render_board_oob(game.pk, alice, "x" * 64),
                 logged_in(alice).get(reverse("game", args=[game.pk])).content.decode()):
        assert "bob called this game off" in html and "nobody won" in html
        assert 'name="cards"' not in html and reverse("act", args=[game.pk]) not in html  # nothing to play
        assert reverse("lobby") in html
    page = logged_in(bob).get(reverse("game", args=[game.pk])).content.decode()
    assert "You called this game off" in page and "<title>Called off · You v alice" in page
    refused = logged_in(alice).post(reverse("act", args=[game.pk]), {"version": game.version, "type": "go"},
                                    headers=HTMX)
    assert refused.status_code == 409 and "not in progress" in refused.content.decode()


# --- presence and claiming the win --------------------------------------------------------------


def test_presence_follows_sockets_and_heartbeats(alice, bob):
    game = human_game(alice, bob)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    (bob_seen,) = presence.table(game, 0, ())
    assert bob_seen.here and bob_seen.name == "bob"
    # A socket whose heartbeat stopped (its process died) no longer counts.
    Connection.objects.filter(channel_name="bob-1").update(
        last_seen=timezone.now() - timedelta(seconds=presence.PRESENCE_EXPIRES_SECONDS + 5)
    )
    assert not presence.table(game, 0, ())[0].here
    presence.heartbeats(["bob-1"])
    assert presence.table(game, 0, ())[0].here
    presence.disconnected(game_id=game.pk, channel_name="bob-1")
    assert not presence.table(game, 0, ())[0].here


def test_a_player_who_closed_the_game_has_left_it_rather_than_never_came(alice, bob):
    game = human_game(alice, bob)
    assert "bob has not opened the game yet" in _presence_html(game, alice)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-1")
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-2")  # a second tab
    presence.disconnected(game_id=game.pk, channel_name="bob-1")
    assert presence.table(game, 0, ())[0].here  # still at the table in the other tab
    presence.disconnected(game_id=game.pk, channel_name="bob-2")
    (bob_seen,) = presence.table(game, 0, ())
    assert not bob_seen.here and bob_seen.arrived and bob_seen.left_ago == "just now"
    assert "bob has left the table (<time" in _presence_html(game, alice)
    assert Connection.objects.filter(game=game).count() == 1  # only the latest closed socket is kept
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-3")  # back again
    assert presence.table(game, 0, ())[0].here and Connection.objects.filter(game=game).count() == 1
    # Away since the socket closed, not since the game began: the claim clock starts there.
    away_for(game, 600)
    presence.disconnected(game_id=game.pk, channel_name="bob-3")
    assert presence.away_seconds(game, 1) < 5


def test_claim_the_win_only_after_the_absence_limit_on_their_turn(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    absent, claimer = (bob, alice) if state.turn == 1 else (alice, bob)
    presence.connected(game_id=game.pk, user=claimer, channel_name="claimer")
    with pytest.raises(services.NotAvailable):
        services.game_claim_win(user=claimer, game_id=game.pk)
    away_for(game, 61)
    outcome = services.game_claim_win(user=claimer, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner_seat == game.seat_of(claimer)
    last = Move.objects.filter(game=game).latest("seq")
    assert last.by_timeout and last.note["kind"] == "abandon"
    assert outcome.game.pk == game.pk


def test_no_claim_while_the_opponent_is_at_the_table(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    absent, claimer = (bob, alice) if state.turn == 1 else (alice, bob)
    presence.connected(game_id=game.pk, user=absent, channel_name="here")
    away_for(game, 600)
    with pytest.raises(services.NotAvailable):
        services.game_claim_win(user=claimer, game_id=game.pk)


def test_no_claim_when_it_is_your_own_turn(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    on_turn = alice if state.turn == 0 else bob
    away_for(game, 600)
    with pytest.raises(services.NotAvailable):
        services.game_claim_win(user=on_turn, game_id=game.pk)


def _was_here(game: Game, user, seconds_ago: int) -> None:
    """``user``'s socket on ``game`` went silent ``seconds_ago``."""
    Connection.objects.create(game=game, user=user, channel_name=f"gone-{user.pk}",
                              last_seen=timezone.now() - timedelta(seconds=seconds_ago))


def _presence_html(game: Game, viewer) -> str:
    return logged_in(viewer).get(reverse("presence", args=[game.pk])).content.decode()


def test_the_presence_fragment_offers_the_claim(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    claimer, absent = (alice, bob) if state.turn == 1 else (bob, alice)
    away_for(game, 120)
    _was_here(game, absent, 120)
    html = _presence_html(game, claimer)
    assert "data-ago>2\xa0minutes ago</time>)" in html and "Claim the win" in html  # timesince's nbsp
    stranger = Client()
    stranger.force_login(make_user("carol"))
    assert stranger.get(reverse("presence", args=[game.pk])).status_code == 403


def test_a_player_gone_under_a_minute_left_just_now(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 600
    game = human_game(alice, bob)
    _to_play(game, {0: alice, 1: bob})
    away_for(game, 20)
    _was_here(game, bob, 300)  # gone long ago; away on this turn for 20 seconds
    html = _presence_html(game, alice)
    assert "data-ago>just now</time>)" in html and "0 minutes" not in html


def test_a_player_who_never_opened_the_game_has_not_left_it(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    claimer, absent = (alice, bob) if state.turn == 1 else (bob, alice)
    away_for(game, 120)
    html = _presence_html(game, claimer)
    assert f"{absent.username} has not opened the game yet." in html and "left the table" not in html
    assert "Claim the win" in html and "has not come?" in html  # absent on their turn all the same


def test_presence_is_pushed_only_to_boards_that_show_it(alice, bob):
    """A board against the computer has no #presence: a push there was an htmx oobErrorNoTarget."""
    from games.play.board.status import render_presence

    people = human_game(alice, bob)
    assert 'id="presence"' in render_presence(people.pk, alice, oob=True)
    computer = services.game_create_vs_computer(user=alice, level="easy", rules=HouseRules(), hints=False)
    assert render_presence(computer.pk, alice, oob=True) is None
    page = Client()
    page.force_login(alice)
    assert 'id="presence"' not in page.get(reverse("game", args=[computer.pk])).content.decode()


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


def test_heartbeats_of_sockets_opened_together_are_spread_over_the_interval():
    """Pages that reconnect together (a restarted worker) must not beat together for ever: each
    socket's first beat comes at a random point of its first interval, later ones a full interval
    apart, which keeps every live socket fresh (PRESENCE_EXPIRES_SECONDS is three intervals)."""
    firsts = [presence.heartbeat_delay(first=True) for _ in range(400)]
    low, high = (presence.HEARTBEAT_SECONDS * share for share in presence.FIRST_BEAT)
    assert all(low <= t <= high for t in firsts)
    assert max(firsts) - min(firsts) > (high - low) * 0.8  # spread, not bunched
    assert presence.heartbeat_delay(first=False) == presence.HEARTBEAT_SECONDS
    assert high <= presence.HEARTBEAT_SECONDS < presence.PRESENCE_EXPIRES_SECONDS


def test_presence_and_the_claim_follow_every_board(alice, bob, settings):
    """The presence line comes with every board (an answer and a push alike): it is whose turn it is
    that decides who may be claimed against, so a line drawn before a move goes stale after it."""
    settings.ABSENCE_CLAIM_SECONDS = 60
    game = human_game(alice, bob)
    state = _to_play(game, {0: alice, 1: bob})
    mover, away = (alice, bob) if state.turn == 0 else (bob, alice)
    _was_here(game, away, 30)
    game.refresh_from_db()
    mine = next(c for c in load(game).hands[state.turn] if c.value + state.count <= 31)
    client = logged_in(mover, headers={"HX-Request": "true"})
    answer = client.post(reverse("act", args=[game.pk]),
                         {"type": "play", "card": str(mine), "version": game.version}).content.decode()
    presence_part = answer.split('<div id="presence"', 1)[1]
    assert presence_part.startswith(' class="presence" hx-swap-oob="morph"')
    # Now it is the absent player's turn: the claim counts down, from when their turn began.
    assert "you may claim the win in <time" in presence_part and "data-countdown>1:00<" in presence_part
    assert 'hx-trigger="load delay:' in presence_part  # and the line is asked for again when it is due
    pushed = render_board_oob(game.pk, mover, "x" * 64)
    assert '<div id="presence" class="presence" hx-swap-oob="morph"' in pushed
    computer = computer_game(alice)  # a game against the computer has nobody to wait for
    assert '<div id="presence"' not in render_board_oob(computer.pk, alice, "x" * 64)


def test_a_present_player_is_looked_at_again_when_their_heartbeat_would_expire(alice, bob):
    game = human_game(alice, bob)
    presence.connected(game_id=game.pk, user=bob, channel_name="bob-live")
    html = _presence_html(game, alice)
    assert "bob is at the table" in html
    delay = int(html.split('hx-trigger="load delay:', 1)[1].split("ms", 1)[0])
    expires_ms = presence.PRESENCE_EXPIRES_SECONDS * 1000
    assert expires_ms - 2000 <= delay <= expires_ms + 1000
