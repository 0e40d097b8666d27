"""Tables of three and four: created from the lobby, seats filled by people and computers."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.play.factories import act, as_form, load, make_user, random_action

pytestmark = pytest.mark.django_db



def _play_out(game, users: dict, seed: int = 1, limit: int = 4000):
    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return load(game)
        if services.computer_to_act(game):
            services.game_computer_step(game_id=game.pk)
            continue
        state = load(game)
        seat = next(s for s in state.to_act if s in users)
        act(game, users[seat], as_form(random_action(state, seat, rng)))
    raise AssertionError("the table never finished")


def test_a_table_of_four_with_three_computers_starts_at_once_and_plays_to_the_end(alice):
    game = services.game_create_table(
        user=alice, rules=HouseRules(players=4, target=61),
        seats=[{"kind": "computer", "level": "easy"}] * 3,
    )
    assert game.status == Game.Status.ACTIVE and game.players == 4 and game.seats.count() == 4
    state = _play_out(game, {0: alice})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert state.scores[state.match_winner] >= 61 and len(state.scores) == 2  # two partnerships


def test_a_table_of_three_waits_for_its_open_seat_and_partners_are_chosen_by_seat(alice):
    bob, carol = make_user("bob"), make_user("carol")
    game = services.game_create_table(
        user=alice, rules=HouseRules(players=4),
        seats=[{"kind": "open"}, {"kind": "open"}, {"kind": "computer", "level": "easy"}],
    )
    assert game.status == Game.Status.WAITING
    # Carol takes seat 3, opposite Alice: her partner.
    services.game_accept(user=carol, game_id=game.pk, seat=2)
    with pytest.raises(services.NotAvailable):
        services.game_accept(user=bob, game_id=game.pk, seat=2)
    game = services.game_accept(user=bob, game_id=game.pk)
    assert game.status == Game.Status.ACTIVE
    seats = {s.index: s.user_id for s in game.seats.all()}
    assert seats[2] == carol.pk and seats[1] == bob.pk and seats[3] is None
    assert load(game).teams == ((0, 2), (1, 3))


def test_an_invited_seat_is_kept_for_its_player(alice):
    bob, carol = make_user("bob"), make_user("carol")
    game = services.game_create_table(
        user=alice, rules=HouseRules(players=3),
        seats=[{"kind": "invite", "user": bob}, {"kind": "computer", "level": "easy"}],
    )
    with pytest.raises(services.NotAPlayer):
        services.game_accept(user=carol, game_id=game.pk)
    game = services.game_accept(user=bob, game_id=game.pk)
    assert game.status == Game.Status.ACTIVE and game.seat_of(bob) == 1


def test_bad_tables_are_refused(alice):
    with pytest.raises(services.ServiceError):
        services.game_create_table(user=alice, rules=HouseRules(players=3), seats=[{"kind": "open"}])
    with pytest.raises(services.ServiceError):
        services.game_create_table(
            user=alice, rules=HouseRules(players=3),
            seats=[{"kind": "invite", "user": alice}, {"kind": "open"}],
        )
    with pytest.raises(services.ServiceError):
        services.game_create_table(
            user=alice, rules=HouseRules(players=3), seats=[{"kind": "computer", "level": "genius"}] * 2
        )


def test_the_lobby_form_creates_a_table_and_the_board_shows_every_seat(alice):
    c = Client()
    c.force_login(alice)
    form = {
        "table-players": "3", "table-seat_1": "easy", "table-seat_2": "easy", "table-target": "121",
        "table-skunks": "on", "table-peg_out_zone": "0", "table-match_games": "1", "table-turn_timer": "0",
    }
    response = c.post(reverse("new_table"), form)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    html = c.get(game.get_absolute_url()).content.decode()
    assert html.count('class="seat seat--opponent') == 2
    assert 'aria-label="You 0, Computer 1 (easy) 0, Computer 2 (easy) 0, game to 121"' in html
    act(game, alice, {"type": "cut_for_deal", "position": 7})  # the computers cut when the page loaded
    state = load(game)
    while state.dealer is None:  # equal low cards: everyone cuts again
        services.play_computer_turns(game.pk)
        act(game, alice, {"type": "cut_for_deal", "position": 7})
        state = load(game)
    html = c.get(game.get_absolute_url()).content.decode()
    names = ["You", "Computer 1 (easy)", "Computer 2 (easy)"]
    order = " → ".join(names[(state.dealer + k) % 3] for k in range(1, 3))
    assert f"Order of play: {order} → {names[state.dealer]} (dealer)" in html


def test_the_lobby_form_reports_an_unknown_invitee(alice):
    c = Client()
    c.force_login(alice)
    form = {
        "table-players": "4", "table-seat_1": "invite", "table-seat_1_player": "nobody",
        "table-seat_2": "easy", "table-seat_3": "easy", "table-target": "121", "table-peg_out_zone": "0",
        "table-match_games": "1",
    }
    response = c.post(reverse("new_table"), form)
    assert response.status_code == 400 and "no player called" in response.content.decode()
    assert not Game.objects.exists()


def test_a_seated_player_may_leave_a_table_that_has_not_started(alice):
    bob, carol = make_user("bob"), make_user("carol")
    game = services.game_create_table(
        user=alice, rules=HouseRules(players=3), seats=[{"kind": "open"}, {"kind": "invite", "user": carol}],
    )
    services.game_accept(user=bob, game_id=game.pk)
    client = Client()
    client.force_login(bob)
    lobby = client.get(reverse("lobby")).content.decode()
    assert reverse("leave", args=[game.pk]) in lobby and reverse("withdraw", args=[game.pk]) not in lobby
    response = client.post(reverse("leave", args=[game.pk]), follow=True)
    assert "You left the table." in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.WAITING and game.seat_of(bob) is None
    assert game.open_seat_indexes(carol) == [2, 1]  # carol's invitation first, then the open seat
    # Leaving again, or leaving a table one never sat at, changes nothing and says why.
    with pytest.raises(services.NotAPlayer):
        services.game_leave(user=bob, game_id=game.pk)
    # Whoever posted it withdraws it instead; a started table keeps its players.
    with pytest.raises(services.ServiceError, match="withdraw"):
        services.game_leave(user=alice, game_id=game.pk)
    services.game_accept(user=bob, game_id=game.pk)
    game = services.game_accept(user=carol, game_id=game.pk)
    assert game.status == Game.Status.ACTIVE
    response = client.post(reverse("leave", args=[game.pk]), follow=True)
    assert "already started" in response.content.decode()
    assert Game.objects.get(pk=game.pk).seat_of(bob) is not None


def test_a_table_whose_last_seat_is_kept_for_an_invitee_is_no_open_seek(alice):
    bob, carol, dave = make_user("bob"), make_user("carol"), make_user("dave")
    game = services.game_create_table(
        user=alice, rules=HouseRules(players=3), seats=[{"kind": "open"}, {"kind": "invite", "user": carol}],
    )

    def lobby(user) -> str:
        client = Client()
        client.force_login(user)
        return client.get(reverse("lobby")).content.decode()

    accept = reverse("accept", args=[game.pk])
    assert "Take seat 2" in lobby(dave)  # the open seat is anyone's
    services.game_accept(user=bob, game_id=game.pk)
    # Only Carol's seat is left: not a seek for Dave (he had a line with no button), Carol's invitation.
    seen_by_dave = lobby(dave)
    assert accept not in seen_by_dave and "Nobody is seeking a game right now." in seen_by_dave
    seen_by_carol = lobby(carol)
    assert "Invitations for you" in seen_by_carol and accept in seen_by_carol
    assert "waiting for carol" in lobby(alice) and "waiting for carol" in lobby(bob)
    services.game_accept(user=carol, game_id=game.pk)
    assert "waiting for carol" not in lobby(alice)
