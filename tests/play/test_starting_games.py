"""Starting games through the service layer: against the computer, open seeks and invitations,
accepting and withdrawing, and the rematch once a game is over."""

from __future__ import annotations

import pytest

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game, Move
from tests.play.factories import act, computer_game, human_game, load
from tests.play.service_support import (
    _secrets,  # noqa: F401  autouse: games dealt from the "services" secrets
    refused,
)

pytestmark = pytest.mark.django_db


# --- creating a game against the computer ----------------------------------------------------------


def test_create_vs_computer_seats_the_user_and_the_computer(alice, pushes):
    rules = HouseRules(target=61, peg_out_zone=5, manual_counting=True, muggins=True, match_games=3)
    game = services.game_create_vs_computer(user=alice, level="expert", rules=rules, hints=True)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.vs_computer and game.computer_level == "expert" and game.hints
    assert game.created_by == alice
    assert game.house_rules == rules
    seats = list(game.seats.order_by("index"))
    assert [(s.index, s.user_id, s.computer_level) for s in seats] == [(0, alice.pk, ""), (1, None, "expert")]
    assert seats[1].is_computer and seats[1].display_name == "Computer (expert)"
    state = load(game)
    assert state.phase == "cut" and state.to_act == (0, 1)
    assert state.rules == rules
    assert state.secret == bytes.fromhex(game.secret)
    assert game.version == 1
    assert Move.objects.filter(game=game).count() == 0
    assert game.seat_of(alice) == 0


def test_create_vs_computer_refuses_an_unknown_level(alice):
    with pytest.raises(services.ServiceError, match="easy, standard or expert"):
        services.game_create_vs_computer(user=alice, level="grandmaster", rules=HouseRules())
    assert not Game.objects.exists()


def test_each_game_gets_its_own_secret(alice):
    a = computer_game(alice)
    b = computer_game(alice)
    assert a.secret != b.secret and len(a.secret) == 64


# --- seeks, invitations, accepting, withdrawing ----------------------------------------------------


def test_open_seek_waits_in_the_lobby(alice, bob, pushes, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        seek = services.game_create_seek(user=alice, rules=HouseRules(target=61))
    assert len(callbacks) == 1 and pushes == [("lobby",)]
    seek.refresh_from_db()
    assert seek.status == Game.Status.WAITING and seek.state is None and seek.version == 0
    assert list(seek.seats.values_list("index", "user")) == [(0, alice.pk)]
    assert list(Game.objects.open_seeks()) == [seek]
    assert seek.target == 61


def test_seek_refuses_inviting_yourself_and_rated_manual_counting(alice):
    with pytest.raises(services.ServiceError, match="invite yourself"):
        services.game_create_seek(user=alice, rules=HouseRules(), invited=alice)
    with pytest.raises(services.ServiceError, match="automatic counting"):
        services.game_create_seek(user=alice, rules=HouseRules(manual_counting=True), rated=True)
    assert not Game.objects.exists()


def test_accepting_an_open_seek_starts_the_game(alice, bob, pushes, django_capture_on_commit_callbacks):
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_accept(user=bob, game_id=seek.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version == 1
    assert list(game.seats.order_by("index").values_list("user", flat=True)) == [alice.pk, bob.pk]
    assert load(game).phase == "cut"
    assert set(pushes) == {(game.pk, 1), ("lobby",)}
    assert not Game.objects.open_seeks().exists()


def test_accepting_your_own_seek_is_refused(alice):
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    refused(seek, services.ServiceError, lambda: services.game_accept(user=alice, game_id=seek.pk),
            match="your own")
    assert seek.seats.count() == 1


def test_an_invitation_is_only_for_the_invitee_or_the_link_holder(alice, bob, carol):
    seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob)
    assert not Game.objects.open_seeks().exists()  # an invitation is not an open seek
    refused(seek, services.NotAPlayer, lambda: services.game_accept(user=carol, game_id=seek.pk),
            match="someone else")
    refused(seek, services.NotAPlayer,
            lambda: services.game_accept(user=carol, game_id=seek.pk, token="not-the-token"))
    game = services.game_accept(user=carol, game_id=seek.pk, token=seek.invite_token)
    assert game.status == Game.Status.ACTIVE
    assert game.seat_of(carol) == 1 and game.seat_of(bob) is None


def test_the_invitee_accepts_without_the_token(alice, bob):
    seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob)
    game = services.game_accept(user=bob, game_id=seek.pk)
    assert game.status == Game.Status.ACTIVE and game.seat_of(bob) == 1


def test_accepting_twice_is_refused(alice, bob, carol):
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    game = services.game_accept(user=bob, game_id=seek.pk)
    refused(game, services.NotAvailable, lambda: services.game_accept(user=carol, game_id=seek.pk))
    refused(game, services.NotAvailable, lambda: services.game_accept(user=bob, game_id=seek.pk))
    assert game.seats.count() == 2


def test_accepting_a_computer_game_or_a_missing_game_is_refused(alice, bob):
    game = computer_game(alice)
    refused(game, services.NotAvailable, lambda: services.game_accept(user=bob, game_id=game.pk))
    with pytest.raises(services.ServiceError, match="No such game"):
        services.game_accept(user=bob, game_id=game.pk + 1000)


def test_withdraw(alice, bob, pushes, django_capture_on_commit_callbacks):
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    refused(seek, services.NotAPlayer, lambda: services.game_withdraw(user=bob, game_id=seek.pk))
    with django_capture_on_commit_callbacks(execute=True):
        services.game_withdraw(user=alice, game_id=seek.pk)
    seek.refresh_from_db()
    assert seek.status == Game.Status.ABORTED and seek.version == 1
    assert pushes == [("lobby",)]
    refused(seek, services.NotAvailable, lambda: services.game_accept(user=bob, game_id=seek.pk))
    refused(seek, services.NotAvailable, lambda: services.game_withdraw(user=alice, game_id=seek.pk))


def test_withdraw_after_it_started_is_refused(alice, bob):
    game = human_game(alice, bob)
    refused(game, services.NotAvailable, lambda: services.game_withdraw(user=alice, game_id=game.pk))
    refused(game, services.NotAPlayer, lambda: services.game_withdraw(user=bob, game_id=game.pk))


# --- rematch ----------------------------------------------------------------------------------------


def test_rematch_against_the_computer_starts_at_once(alice, bob):
    rules = HouseRules(target=61, peg_out_zone=1)
    game = computer_game(alice, level="expert", rules=rules, hints=True)
    refused(game, services.NotAvailable, lambda: services.game_rematch(user=alice, game_id=game.pk))
    act(game, alice, {"type": "resign"})
    refused(game, services.NotAPlayer, lambda: services.game_rematch(user=bob, game_id=game.pk))
    again = services.game_rematch(user=alice, game_id=game.pk)
    assert again.pk != game.pk and again.secret != game.secret
    assert again.status == Game.Status.ACTIVE and again.vs_computer
    assert again.computer_level == "expert" and again.hints and again.house_rules == rules
    assert again.seat_of(alice) == 0


def test_rematch_between_people_invites_the_opponent(alice, bob, carol):
    rules = HouseRules(target=61, skunks=False)
    game = human_game(alice, bob, rules=rules, rated=True)
    act(game, bob, {"type": "resign"})
    refused(game, services.NotAPlayer, lambda: services.game_rematch(user=carol, game_id=game.pk))
    again = services.game_rematch(user=bob, game_id=game.pk)
    assert again.status == Game.Status.WAITING and again.created_by == bob and again.invited == alice
    assert again.house_rules == rules and again.rated
    started = services.game_accept(user=alice, game_id=again.pk)
    assert started.seat_of(bob) == 0 and started.seat_of(alice) == 1
    with pytest.raises(services.NotAPlayer):
        services.game_rematch(user=alice, game_id=game.pk + 1000)


def test_a_second_rematch_press_adds_nothing_and_the_opponents_press_accepts(
    alice, bob, pushes, django_capture_on_commit_callbacks,
):
    game = human_game(alice, bob, rules=HouseRules(target=61))
    act(game, bob, {"type": "resign"})
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        offer = services.game_rematch(user=alice, game_id=game.pk)
    # Bob, still on the finished board, is sent it again: it now offers "Accept rematch".
    assert (game.pk, game.version + 1) in pushes
    game.refresh_from_db()
    assert services.rematch_offer(game, by=alice) == offer and services.rematch_offer(game, by=bob) is None
    with pytest.raises(services.RematchWaiting, match="already waiting for bob"):
        services.game_rematch(user=alice, game_id=game.pk)
    # Bob pressing Rematch too accepts Alice's offer: one new game, not two crossing invitations.
    started = services.game_rematch(user=bob, game_id=game.pk)
    assert started.pk == offer.pk and started.status == Game.Status.ACTIVE
    assert started.seat_of(alice) == 0 and started.seat_of(bob) == 1
    assert not Game.objects.filter(status=Game.Status.WAITING).exists()
    # An invitation between them on other terms, or made before the game ended, is no rematch of it.
    services.game_create_seek(user=alice, rules=HouseRules(target=121), invited=bob)
    assert services.rematch_offer(game, by=alice) is None
