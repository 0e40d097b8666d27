"""Every move through ``game_act`` on the database: the cut for deal, laying away from the same
board, the play and the go, the show and the next deal, manual counting with muggins, the next game
of a match, winning, skunks and resigning.

Deals are the stacked "go" deal of ``tests/play/service_support.py``."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_card, parse_cards
from games.engine.deck import commitment, cut_seed, deal_seed, shuffle
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game, Move, Round
from tests.play.factories import GO_PLAY, GO_STARTER, act, human_game, load, replay
from tests.play.service_support import (
    _secrets,  # noqa: F401  autouse: games dealt from the "services" secrets
    assert_log_consistent,
    discard_both,
    go_deal,
    play_moves,
    refused,
    users_of,
)

pytestmark = pytest.mark.django_db


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
