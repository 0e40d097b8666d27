"""Refused moves through the service layer: strangers, stale boards, a move sent again, illegal
and malformed moves, a lost compare-and-set; each refusal changes nothing and pushes nothing, and a
move's push waits for its commit."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game, Move
from games.play.services import core as services_core
from tests.play.factories import GO_PLAY, act, human_game, load, snapshot
from tests.play.service_support import (
    _secrets,  # noqa: F401  autouse: games dealt from the "services" secrets
    discard_both,
    go_deal,
    play_moves,
    refused,
    users_of,
)

pytestmark = pytest.mark.django_db


# --- game_act: refusals -----------------------------------------------------------------------------


@pytest.fixture
def in_play(alice, bob):
    """The go deal after both discards: bob to lead, count 0."""
    game = go_deal(human_game(alice, bob))
    discard_both(game, alice, bob)
    game.refresh_from_db()
    return game


def test_a_stranger_cannot_act(in_play, carol):
    refused(in_play, services.NotAPlayer, lambda: act(in_play, carol, {"type": "play", "card": "KH"}))
    refused(in_play, services.NotAPlayer, lambda: act(in_play, carol, {"type": "resign"}))


def test_a_stale_version_is_refused(in_play, bob):
    in_play.refresh_from_db()
    version = in_play.version
    refused(in_play, services.StaleVersion,
            lambda: act(in_play, bob, {"type": "play", "card": "KH"}, version=version - 1), match="changed")
    refused(in_play, services.StaleVersion,
            lambda: act(in_play, bob, {"type": "play", "card": "KH"}, version=version + 1))
    act(in_play, bob, {"type": "play", "card": "KH"}, version=version)
    # Another card from the same board (a second click): stale.
    refused(in_play, services.StaleVersion,
            lambda: act(in_play, bob, {"type": "play", "card": "9C"}, version=version))


def test_a_move_sent_again_is_made_once(in_play, bob, alice):
    """A page that lost the answer to its move sends it again: the move stands, once."""
    in_play.refresh_from_db()
    version = in_play.version
    act(in_play, bob, {"type": "play", "card": "KH"}, version=version)
    refused(in_play, services.AlreadyMade,
            lambda: act(in_play, bob, {"type": "play", "card": "KH"}, version=version), match="made already")
    # Still the same one move after the other player's answer.
    act(in_play, alice, {"type": "play", "card": "TD"})
    refused(in_play, services.AlreadyMade,
            lambda: act(in_play, bob, {"type": "play", "card": "KH"}, version=version))
    assert Move.objects.filter(game=in_play, seat=1, action__card="KH").count() == 1
    # The other player sending the same card from that board made no such move: stale.
    refused(in_play, services.StaleVersion,
            lambda: act(in_play, alice, {"type": "play", "card": "KH"}, version=version))


@pytest.mark.parametrize(
    ("who", "action", "match"),
    [
        ("bob", {"type": "play", "card": "5H"}, "don't hold"),  # card not in hand
        ("bob", {"type": "play", "card": "8S"}, "don't hold"),  # laid away already
        ("alice", {"type": "play", "card": "TD"}, "not your turn"),  # out of turn
        ("bob", {"type": "discard", "cards": ["KH", "9C"]}, "can't lay away"),  # wrong phase
        ("bob", {"type": "cut_for_deal", "position": "3"}, "cut for deal is over"),  # wrong phase
        ("bob", {"type": "next_deal"}, "not over"),  # wrong phase
        ("bob", {"type": "next_game"}, "not over"),  # wrong phase
        ("bob", {"type": "call_muggins"}, None),  # wrong phase
        ("bob", {"type": "accept_count"}, None),  # wrong phase
        ("bob", {"type": "count", "points": "4"}, None),  # wrong phase
        ("bob", {"type": "play", "card": "ZZ"}, "not one you can play"),  # bad notation
        ("bob", {"type": "play", "card": ""}, "not one you can play"),
        ("bob", {"type": "play", "card": "K"}, "not one you can play"),
        ("bob", {"type": "fly"}, "not a move"),  # unknown action type
        ("bob", {}, "not a move"),  # no type
        ("bob", {"type": "play"}, "not a move"),  # missing fields
        ("bob", {"type": "count"}, "not a move"),
        ("bob", {"type": "cut_for_deal"}, "not a move"),
        ("bob", {"type": "discard"}, "pick two cards for the crib"),  # says what to do
        ("bob", {"type": "cut_for_deal", "position": "x"}, "not a move"),
        ("bob", {"type": "count", "points": "many"}, "not a move"),
        ("bob", {"type": "go"}, "can't say go"),  # Go while a card fits
    ],
)
def test_illegal_moves_are_refused_and_change_nothing(in_play, alice, bob, who, action, match):
    user = {"alice": alice, "bob": bob}[who]
    err = refused(in_play, services.IllegalMove, lambda: act(in_play, user, action))
    if match:
        assert match.lower() in err.message.lower()
    assert "expected rank" not in err.message  # the parser's notation help stays in the log


def test_count_over_31_is_refused(in_play, alice, bob):
    play_moves(in_play, users_of(alice, bob), GO_PLAY[:3])
    assert load(in_play).count == 29
    err = refused(in_play, services.IllegalMove, lambda: act(in_play, alice, {"type": "play", "card": "5D"}))
    assert "past 31" in err.message


def test_discard_refusals(alice, bob):
    game = go_deal(human_game(alice, bob))
    for action in (
        {"type": "discard", "cards": ["8S"]},  # one card
        {"type": "discard", "cards": ["8S", "9S", "TD"]},  # three
        {"type": "discard", "cards": ["8S", "8S"]},  # the same card twice
        {"type": "discard", "cards": ["8S", "3S"]},  # not held (bob's)
        {"type": "discard", "cards": "8S"},  # not a list: "8", "S" are not cards
        {"type": "play", "card": "8S"},  # wrong phase
    ):
        refused(game, services.IllegalMove, lambda action=action: act(game, alice, action))


def test_no_one_acts_in_a_waiting_game(alice):
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    refused(seek, services.NotAvailable, lambda: act(seek, alice, {"type": "cut_for_deal", "position": 1}))


def test_a_lost_compare_and_set_rolls_everything_back(in_play, bob, monkeypatch):
    """SQLite ignores select_for_update: the version check at the write is what stops a race."""
    original = services_core._record_round

    def racing(game, before, after):
        # Another request commits a move between our read and our write.
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)
        original(game, before, after)

    monkeypatch.setattr(services_core, "_record_round", racing)
    before = snapshot(in_play)
    with pytest.raises(services.StaleVersion):
        act(in_play, bob, {"type": "play", "card": "KH"})
    # The whole transaction is rolled back, the Move row included (and the racing write with it here).
    assert snapshot(in_play) == before


# --- pushes after commit ----------------------------------------------------------------------------


def test_the_push_happens_after_commit(in_play, bob, pushes, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        out = act(in_play, bob, {"type": "play", "card": "KH"})
        assert pushes == []  # not before the commit
    assert len(callbacks) == 1 and pushes == []
    callbacks[0]()
    assert pushes == [(in_play.pk, out.game.version)]
    in_play.refresh_from_db()
    assert out.game.version == in_play.version


def test_a_refused_action_pushes_nothing(in_play, bob, pushes, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(services.IllegalMove):
        act(in_play, bob, {"type": "play", "card": "5H"})
    assert callbacks == [] and pushes == []


def test_a_rolled_back_outer_transaction_pushes_nothing(in_play, bob, pushes,
                                                          django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                act(in_play, bob, {"type": "play", "card": "KH"})
                raise RuntimeError("the request failed after the service returned")
        except RuntimeError:
            pass
    assert callbacks == [] and pushes == []
    assert load(in_play).count == 0
