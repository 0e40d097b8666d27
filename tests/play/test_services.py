"""The service layer: every state change and every refusal, on the database.

Deals are stacked with ``games.engine.testing`` so each situation is exact. The "go" deal used
throughout (alice = seat 0 deals, bob = seat 1 is pone), as in ``tests/engine/game_support.py``:
alice keeps TD 5D 6D 7D (lays away 8S 9S), bob keeps KH 9C AH 2C (lays away 3S 4S), starter 5C.
Play: bob KH 10, alice TD 20, bob 9C 29, alice go, bob AH 30 (go for 1 to bob), alice 5D 5,
bob 2C 7, alice 6D 13, alice 7D 20 (last card). Show: bob 4, alice 16, crib 5.
"""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from games.engine.actions import AcceptCount, Count, NextGame, action_from_dict
from games.engine.cards import parse_card, parse_cards
from games.engine.deck import commitment, cut_seed, deal_seed, shuffle
from games.engine.game import apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.play import broadcast, services
from games.play.models import Game, Move, Round
from games.play.services import core as services_core
from tests.engine.game_support import GO_DISCARDS, D, parse_moves, run
from tests.engine.game_support import GO_PLAY as ENGINE_PLAY
from tests.play.factories import (
    GO_HANDS,
    GO_PLAY,
    GO_STARTER,
    act,
    computer_game,
    fixed_secrets,
    human_game,
    load,
    play_out,
    put_state,
    replay,
    snapshot,
    stack,
)

pytestmark = pytest.mark.django_db



@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "services")





@pytest.fixture
def pushes(monkeypatch):
    """Records broadcast calls instead of sending them."""
    calls: list[tuple] = []
    monkeypatch.setattr(
        broadcast, "game_changed", lambda game_id, version, **kw: calls.append((game_id, version))
    )
    monkeypatch.setattr(broadcast, "lobby_changed", lambda *args, **kwargs: calls.append(("lobby",)))
    return calls


def go_deal(game: Game, rules_scores=None, **kw) -> Game:
    return stack(game, dealer=0, hands=GO_HANDS, starter=GO_STARTER, scores=rules_scores, **kw)


def users_of(alice, bob) -> dict:
    return {0: alice, 1: bob}


def discard_both(game: Game, alice, bob) -> None:
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})


def play_moves(game: Game, users: dict, moves) -> None:
    for seat, action in moves:
        act(game, users[seat], action)


def refused(game: Game, error: type[services.ServiceError], call, match: str | None = None):
    """``call()`` raises exactly ``error`` and changes nothing: version, state, status, Moves, Rounds."""
    before = snapshot(game)
    with pytest.raises(services.ServiceError, match=match) as info:
        call()
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value.message}"
    assert info.value.status == error.status
    assert snapshot(game) == before
    return info.value


def assert_log_consistent(game: Game) -> None:
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


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


# --- game_act: each action --------------------------------------------------------------------------


def test_cut_for_deal_picks_the_lower_card_as_dealer(alice, bob):
    game = human_game(alice, bob)
    deck = shuffle(cut_seed(bytes.fromhex(game.secret), 0, 0))
    other = next(p for p in range(1, 52) if deck[p].rank != deck[0].rank)
    out = act(game, alice, {"type": "cut_for_deal", "position": "0"})
    assert out.events == ()  # nothing is revealed until both have cut
    assert load(game).phase == "cut" and game.version == 2
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "cut_for_deal", "position": "0"}),
            match="already been picked")
    refused(game, services.IllegalMove, lambda: act(game, alice, {"type": "cut_for_deal", "position": "5"}),
            match="already cut")
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "cut_for_deal", "position": "52"}))
    act(game, bob, {"type": "cut_for_deal", "position": str(other)})
    state = load(game)
    assert state.phase == "discard"
    assert state.cut_cards == (deck[0], deck[other])
    assert state.dealer == (0 if deck[0].rank < deck[other].rank else 1)
    assert game.version == 3
    moves = list(Move.objects.filter(game=game).values_list("seq", "seat", "action"))
    assert moves == [
        (1, 0, {"type": "cut_for_deal", "seat": 0, "position": 0}),
        (2, 1, {"type": "cut_for_deal", "seat": 1, "position": other}),
    ]
    assert replay(game) == state


def test_discard_waits_for_both_then_turns_the_starter(alice, bob):
    game = go_deal(human_game(alice, bob))
    out = act(game, alice, {"type": "discard", "cards": ["8S", "9S"]})
    assert [e.kind for e in out.events] == ["discard"]
    state = load(game)
    assert state.phase == "discard" and state.to_act == (1,)
    assert state.kept[0] == parse_cards("5D 6D 7D TD")
    refused(game, services.IllegalMove, lambda: act(game, alice, {"type": "discard", "cards": ["TD", "5D"]}),
            match="already laid away")
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]})
    state = load(game)
    assert state.phase == "play" and state.turn == 1
    assert state.starter == parse_card(GO_STARTER)
    assert sorted(state.crib) == sorted(parse_cards("8S 9S 3S 4S"))
    assert game.version == 3
    move = Move.objects.get(game=game, seq=2)
    assert move.seat == 1 and move.action == {"type": "discard", "seat": 1, "cards": ["3S", "4S"]}
    assert [e["kind"] for e in move.events] == ["discard", "starter"]


def test_a_cut_taken_meanwhile_is_a_stale_board_not_a_mistake(alice, bob):
    game = human_game(alice, bob)
    seen = game.version
    act(game, alice, {"type": "cut_for_deal", "position": "7"}, version=seen)
    refused(game, services.StaleVersion,
            lambda: act(game, bob, {"type": "cut_for_deal", "position": "7"}, version=seen), match="changed")
    # From the current board, the same pick is the player's own mistake.
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "cut_for_deal", "position": "7"}))
    act(game, bob, {"type": "cut_for_deal", "position": "8"}, version=seen)
    game.refresh_from_db()
    assert game.version == seen + 2 and Move.objects.filter(game=game).count() == 2


def test_malformed_data_from_a_board_others_changed_is_refused_as_malformed(alice, bob):
    """Not "the board changed": no board could have sent it (a forged or broken form)."""
    game = human_game(alice, bob)
    seen = game.version
    act(game, alice, {"type": "cut_for_deal", "position": "7"}, version=seen)
    refused(game, services.IllegalMove,
            lambda: act(game, bob, {"type": "cut_for_deal", "position": "x"}, version=seen),
            match="not a move")
    game = go_deal(human_game(alice, bob))
    seen = game.version
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]}, version=seen)
    refused(game, services.IllegalMove,
            lambda: act(game, bob, {"type": "discard", "cards": ["3S", "ZZ"]}, version=seen),
            match="not one you can play")


def test_both_players_may_lay_away_from_the_same_board(alice, bob):
    """Everyone lays away at once: Bob's choice, made on the board from before Alice laid away, stands."""
    game = go_deal(human_game(alice, bob))
    seen = game.version
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"]}, version=seen)
    # The same form again (a double click) is still stale: Alice herself moved since.
    refused(game, services.StaleVersion,
            lambda: act(game, alice, {"type": "discard", "cards": ["TD", "5D"]}, version=seen))
    # A board older than the other players' laying away is stale too.
    refused(game, services.StaleVersion,
            lambda: act(game, bob, {"type": "discard", "cards": ["3S", "4S"]}, version=seen - 1))
    act(game, bob, {"type": "discard", "cards": ["3S", "4S"]}, version=seen)
    state = load(game)
    assert state.phase == "play" and game.version == seen + 2
    assert sorted(state.crib) == sorted(parse_cards("8S 9S 3S 4S"))
    # Playing is one at a time: a card chosen on the board from before the starter is stale.
    refused(game, services.StaleVersion,
            lambda: act(game, bob, {"type": "play", "card": "KH"}, version=seen + 1))


def test_play_and_go(alice, bob):
    game = go_deal(human_game(alice, bob))
    discard_both(game, alice, bob)
    out = act(game, bob, {"type": "play", "card": "KH"})
    assert [e.kind for e in out.events] == ["play"]
    state = load(game)
    assert state.count == 10 and state.turn == 0 and parse_card("KH") not in state.hands[1]
    play_moves(game, users_of(alice, bob), GO_PLAY[1:3])
    assert load(game).count == 29
    out = act(game, alice, {"type": "go"})
    assert [e.kind for e in out.events] == ["say_go"]
    state = load(game)
    assert state.gone == (True, False) and state.turn == 1
    out = act(game, bob, {"type": "play", "card": "AH"})
    # bob cannot play 2C on 30: he scores the go at once and the count resets; alice leads.
    assert [e.kind for e in out.events] == ["play", "go", "reset"]
    state = load(game)
    assert state.scores == (0, 1) and state.count == 0 and state.turn == 0


def test_the_play_to_the_automatic_show_and_next_deal(alice, bob):
    game = go_deal(human_game(alice, bob))
    discard_both(game, alice, bob)
    play_moves(game, users_of(alice, bob), GO_PLAY)
    state = load(game)
    assert state.phase == "show" and state.turn is None
    shown = [(e.seat, e.kind, e.awarded) for e in state.show]
    assert shown == [(1, "hand", 4), (0, "hand", 16), (0, "crib", 5)]
    assert state.scores == (1 + 16 + 5, 1 + 4)
    version = game.version
    act(game, bob, {"type": "next_deal"})
    state = load(game)
    assert state.phase == "show" and state.acks == (False, True)
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "next_deal"}), match="waiting")
    act(game, alice, {"type": "next_deal"})
    state = load(game)
    assert state.phase == "discard" and state.deal_no == 1 and state.dealer == 1
    assert game.version == version + 2
    # A new deal from the game's secret, and its commitment is public.
    seed = deal_seed(bytes.fromhex(game.secret), 0, 1)
    assert state.deck == shuffle(seed)
    rnd = Round.objects.get(game=game, game_no=0, deal_no=1)
    assert rnd.dealer == 1 and rnd.commitment == commitment(seed)
    assert_log_consistent(game)


def test_both_players_may_ask_for_the_next_hand_from_the_same_board(alice, bob):
    """Both press "Next hand" on the show at once: the slower is not told the board changed."""
    game = go_deal(human_game(alice, bob))
    discard_both(game, alice, bob)
    play_moves(game, users_of(alice, bob), GO_PLAY)
    game.refresh_from_db()
    seen = game.version
    act(game, bob, {"type": "next_deal"}, version=seen)
    # Bob's second press from that board (a double click, or a page sending again a press whose
    # answer it lost) is answered with the board: he made it already, and nothing is made twice.
    refused(game, services.AlreadyMade, lambda: act(game, bob, {"type": "next_deal"}, version=seen))
    act(game, alice, {"type": "next_deal"}, version=seen)
    state = load(game)
    assert state.phase == "discard" and state.deal_no == 1 and game.version == seen + 2
    # Once the next hand is dealt, Alice's press sent again is the one already made.
    refused(game, services.AlreadyMade, lambda: act(game, alice, {"type": "next_deal"}, version=seen))
    assert_log_consistent(game)


def test_manual_counting_with_muggins(alice, bob):
    rules = HouseRules(manual_counting=True, muggins=True)
    game = go_deal(human_game(alice, bob, rules=rules))
    discard_both(game, alice, bob)
    play_moves(game, users_of(alice, bob), GO_PLAY)
    state = load(game)
    assert state.phase == "show" and state.turn == 1 and state.show[-1].status == "due"
    assert state.scores == (1, 1)
    # A claim no hand could be worth: refused, nothing changes.
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "count", "points": "30"}),
            match="from 0 to 29")
    # Out of turn: alice cannot count bob's hand, nor call muggins before he counts.
    refused(game, services.IllegalMove, lambda: act(game, alice, {"type": "count", "points": "4"}))
    refused(game, services.IllegalMove, lambda: act(game, alice, {"type": "call_muggins"}))
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "count", "points": "-1"}))
    # Bob undercounts 3 of 4; alice calls muggins and takes the missing point.
    act(game, bob, {"type": "count", "points": "3"})
    state = load(game)
    assert state.show[-1].status == "muggins" and state.turn == 0 and state.scores == (1, 4)
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "call_muggins"}))
    out = act(game, alice, {"type": "call_muggins"})
    assert [(e.kind, e.points) for e in out.events][0] == ("muggins", 1)
    state = load(game)
    assert state.scores == (2, 4) and state.show[0].muggins == 1
    # Alice counts her hand in full; bob accepts; the crib; bob accepts again.
    assert state.turn == 0 and state.show[-1].kind == "hand"
    act(game, alice, {"type": "count", "points": "16"})
    act(game, bob, {"type": "accept_count"})
    act(game, alice, {"type": "count", "points": "5"})
    act(game, bob, {"type": "accept_count"})
    state = load(game)
    assert state.scores == (23, 4) and state.turn is None
    assert [(e.kind, e.claimed, e.awarded) for e in state.show] == [("hand", 3, 3), ("hand", 16, 16),
                                                                  ("crib", 5, 5)]


def test_count_is_refused_with_automatic_counting(alice, bob):
    game = go_deal(human_game(alice, bob))
    discard_both(game, alice, bob)
    play_moves(game, users_of(alice, bob), GO_PLAY)
    refused(game, services.IllegalMove, lambda: act(game, bob, {"type": "count", "points": "4"}),
            match="automatically")


def test_next_game_of_a_match_is_dealt_by_the_loser(alice, bob):
    game = go_deal(human_game(alice, bob, rules=HouseRules(match_games=3)), rules_scores=(118, 100))
    discard_both(game, alice, bob)
    play_moves(game, users_of(alice, bob), GO_PLAY)
    game.refresh_from_db()
    state = load(game)
    assert state.phase == "game_over" and state.scores == (118 + 1 + 16, 100 + 1 + 4)
    assert state.match_scores == (1, 0)
    assert game.status == Game.Status.ACTIVE and game.winner_seat is None
    refused(game, services.IllegalMove, lambda: act(game, alice, {"type": "next_deal"}))
    act(game, bob, {"type": "next_game"})
    state = load(game)
    assert state.phase == "discard" and state.game_no == 1 and state.deal_no == 0
    assert state.dealer == 1 and state.scores == (0, 0)
    rnd = Round.objects.get(game=game, game_no=1, deal_no=0)
    assert rnd.commitment == commitment(deal_seed(bytes.fromhex(game.secret), 1, 0))
    refused(game, services.IllegalMove, lambda: act(game, alice, {"type": "next_game"}), match="not over")


def test_winning_the_match_finishes_the_game(alice, bob):
    game = go_deal(human_game(alice, bob), rules_scores=(118, 100))
    discard_both(game, alice, bob)
    play_moves(game, users_of(alice, bob), GO_PLAY)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert game.winner_seat == 0
    assert game.result["scores"] == [135, 105]
    assert game.result["match_scores"] == [1, 0]
    assert game.result["games"][0]["reason"] == "target"
    refused(game, services.NotAvailable, lambda: act(game, bob, {"type": "next_deal"}),
            match="not in progress")


def test_a_skunk_is_recorded_in_the_result(alice, bob):
    game = go_deal(human_game(alice, bob), rules_scores=(118, 60))
    discard_both(game, alice, bob)
    play_moves(game, users_of(alice, bob), GO_PLAY)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["games"][0]["skunk"] == 1 and game.result["games"][0]["value"] == 2


def test_resign(alice, bob, pushes, django_capture_on_commit_callbacks):
    game = go_deal(human_game(alice, bob, rules=HouseRules(match_games=5)))
    with django_capture_on_commit_callbacks(execute=True):
        out = act(game, alice, {"type": "resign"})
    assert [e.kind for e in out.events] == ["resign", "game_won", "match_won"]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 1
    assert game.result["games"][0]["reason"] == "resign"
    assert pushes == [(game.pk, game.version)]
    refused(game, services.NotAvailable, lambda: act(game, bob, {"type": "resign"}))


def test_the_seat_comes_from_the_user_not_the_form(alice, bob):
    game = go_deal(human_game(alice, bob))
    # Alice claims to be seat 1 and lays away bob's cards: she is seat 0, so they are not hers.
    refused(game, services.IllegalMove,
            lambda: act(game, alice, {"type": "discard", "cards": ["3S", "4S"], "seat": 1}))
    act(game, alice, {"type": "discard", "cards": ["8S", "9S"], "seat": 1})
    assert load(game).discards == (parse_cards("8S 9S"), ())
    assert Move.objects.get(game=game).seat == 0


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


# --- the Move log and the Round rows ----------------------------------------------------------------


def test_a_whole_human_game_replays_from_the_move_log(alice, bob):
    rules = HouseRules(match_games=3, target=61, manual_counting=True, muggins=True)
    game = human_game(alice, bob, rules=rules)
    final = play_out(game, users_of(alice, bob), random.Random(7))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert final.phase == "match_over"
    assert game.winner_seat == final.match_winner and game.winner_seat in (0, 1)
    assert max(game.result["match_scores"]) >= 2
    assert len(game.result["games"]) >= 2  # a best of 3 needs at least two games unless a skunk
    assert_log_consistent(game)
    assert replay(game).to_dict() == game.state
    assert game.version == 1 + Move.objects.filter(game=game).count()


def test_each_deal_gets_a_round_with_its_commitment(alice, bob):
    """Every deal of every game gets a Round row, the first one included, committed to its seed."""
    game = human_game(alice, bob, rules=HouseRules(target=61, match_games=3))
    play_out(game, users_of(alice, bob), random.Random(3))
    secret = bytes.fromhex(game.secret)
    deals = set()
    state = new_game(game.house_rules, secret)
    for move in Move.objects.filter(game=game).order_by("seq"):
        state, _ = apply(state, action_from_dict(move.action))
        if state.phase == "discard" and not any(state.discards):
            deals.add((state.game_no, state.deal_no, state.dealer))
    rounds = {(r.game_no, r.deal_no, r.dealer): r.commitment for r in Round.objects.filter(game=game)}
    assert (0, 0) in {(g, d) for g, d, _ in deals}
    # BUG: the first deal of the first game (dealt by the cut for deal) got no Round row: the service
    # only recorded a Round when (game_no, deal_no) changed, and the cut keeps them at (0, 0).
    assert set(rounds) == deals
    for (game_no, deal_no, _), value in rounds.items():
        assert value == commitment(deal_seed(secret, game_no, deal_no))


def test_the_first_deal_has_a_round_after_the_cut(alice, bob):
    game = human_game(alice, bob)
    deck = shuffle(cut_seed(bytes.fromhex(game.secret), 0, 0))
    other = next(p for p in range(1, 52) if deck[p].rank != deck[0].rank)
    act(game, alice, {"type": "cut_for_deal", "position": 0})
    assert not Round.objects.filter(game=game).exists()  # nothing is dealt yet
    act(game, bob, {"type": "cut_for_deal", "position": other})
    state = load(game)
    # BUG: no Round row was written for the first deal (see test_each_deal_gets_a_round_...).
    rnd = Round.objects.get(game=game, game_no=0, deal_no=0)
    assert rnd.dealer == state.dealer
    assert rnd.commitment == commitment(deal_seed(bytes.fromhex(game.secret), 0, 0))


def test_a_deal_recorded_already_keeps_its_round(alice, bob):
    """Recording a deal again (one INSERT that ignores a conflict) neither fails nor touches the row."""
    game = human_game(alice, bob)
    deck = shuffle(cut_seed(bytes.fromhex(game.secret), 0, 0))
    other = next(p for p in range(1, 52) if deck[p].rank != deck[0].rank)
    before = load(game)
    act(game, alice, {"type": "cut_for_deal", "position": 0})
    act(game, bob, {"type": "cut_for_deal", "position": other})
    Round.objects.filter(game=game).update(summary={"kept": True})
    game.refresh_from_db()
    services_core._record_round(game, before, load(game))
    assert list(Round.objects.filter(game=game).values_list("deal_no", "summary")) == [(0, {"kept": True})]


# --- the computer ---------------------------------------------------------------------------------


def test_the_computer_steps_only_when_its_seat_is_due(alice):
    game = computer_game(alice, level="standard")
    assert services.computer_to_act(game)  # both seats cut
    out = services.game_computer_step(game_id=game.pk)
    assert out is not None
    assert Move.objects.get(game=game).seat == 1
    state = load(game)
    assert state.to_act == (0,) and state.cut_positions[1] is not None
    assert not services.computer_to_act(game)
    before = snapshot(game)
    assert services.game_computer_step(game_id=game.pk) is None
    services.play_computer_turns(game.pk)
    assert snapshot(game) == before
    # The person cuts; the deal may start with the computer to discard (or a re-cut).
    taken = state.cut_positions[1]
    act(game, alice, {"type": "cut_for_deal", "position": 0 if taken else 1})
    services.play_computer_turns(game.pk)
    state = load(game)
    assert state.to_act == (0,)  # only the person is left to act
    assert not services.computer_to_act(game)
    assert all(m.seat in (0, 1) for m in Move.objects.filter(game=game))
    assert_log_consistent(game)


def test_the_computer_does_not_move_in_a_human_game(alice, bob):
    game = human_game(alice, bob)
    assert not services.computer_to_act(game)
    assert services.game_computer_step(game_id=game.pk) is None
    assert not Move.objects.filter(game=game).exists()


def test_the_computer_never_starts_the_next_game_by_itself(alice):
    game = computer_game(alice, level="expert", rules=HouseRules(match_games=3))
    # Finish game 1 of the match in the engine (stacked), the person winning it.
    state = start_deal(game.house_rules, dealer=0, hands=GO_HANDS, starter=GO_STARTER, scores=(118, 100),
                       secret=bytes.fromhex(game.secret))
    state, _ = run(state, *(D(s, c) for s, c in enumerate(GO_DISCARDS)), *parse_moves(ENGINE_PLAY))
    assert state.phase == "game_over"
    put_state(game, state)
    assert not services.computer_to_act(game)
    before = snapshot(game)
    assert services.game_computer_step(game_id=game.pk) is None
    services.play_computer_turns(game.pk)
    assert snapshot(game) == before
    # The person starts it; then the computer has its discard to make.
    act(game, alice, {"type": "next_game"})
    state = load(game)
    assert state.phase == "discard" and state.game_no == 1 and state.dealer == 1
    assert services.computer_to_act(game)
    services.play_computer_turns(game.pk)
    assert load(game).to_act == (0,)
    assert Move.objects.filter(game=game).order_by("seq").last().seat == 1
    assert NextGame(0) == action_from_dict(Move.objects.get(game=game, seq=1).action)


def test_no_computer_step_in_a_finished_game(alice):
    game = computer_game(alice)
    act(game, alice, {"type": "resign"})
    game.refresh_from_db()
    assert not services.computer_to_act(game)
    assert services.game_computer_step(game_id=game.pk) is None


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "standard", "expert"])
def test_a_whole_game_against_each_computer_level(alice, level):
    game = computer_game(alice, level=level)
    final = play_out(game, {0: alice}, random.Random(f"whole-{level}"))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert final.phase == "match_over"
    assert game.winner_seat in (0, 1) and game.winner_seat == final.match_winner
    scores = game.result["scores"]
    assert max(scores) >= 121 and scores[game.winner_seat] == max(scores)
    assert game.result["games"][0]["reason"] == "target"
    assert_log_consistent(game)
    assert replay(game).to_dict() == game.state
    seats = Move.objects.filter(game=game).values_list("seat", flat=True)
    assert set(seats) == {0, 1}
    assert Round.objects.filter(game=game).count() == final.deal_no + 1


def test_manual_counting_against_the_computer(alice):
    """The computer counts its own hands and calls muggins when the person under-counts."""
    rules = HouseRules(target=61, manual_counting=True, muggins=True)
    game = computer_game(alice, level="standard", rules=rules)

    def undercount(state, seat, rng):
        legal = legal_actions(state, seat)
        counts = [a for a in legal if isinstance(a, Count)]
        if counts:
            return counts[0]  # always claim 0
        accepts = [a for a in legal if isinstance(a, AcceptCount)]
        return accepts[0] if accepts else rng.choice(legal)

    play_out(game, {0: alice}, random.Random(11), choose=undercount)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    muggins = [m for m in Move.objects.filter(game=game, seat=1) if m.action["type"] == "call_muggins"]
    assert muggins, "the computer never called muggins on a zero count"
    assert replay(game).to_dict() == game.state


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

