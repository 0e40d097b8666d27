"""The play, deal by deal from fixed decks (RULES.md): the go and who scores it, a seat out of cards
skipped, 31 and the last card, playing when able, pegging within the current series; and his heels
at the starter."""

from __future__ import annotations

from games.engine.actions import Go
from games.engine.cards import parse_card
from games.engine.errors import CountExceeds31, IllegalAction
from games.engine.game import apply, legal_actions
from tests.engine.game_support import (
    GO_PLAY,
    MANUAL,
    P,
    discarded,
    kinds,
    parse_moves,
    played,
    refused,
    run,
    scored,
)

# --- the play -----------------------------------------------------------------------------------


def test_go_then_the_other_player_plays_on_and_scores_the_go():
    state = discarded()
    assert state.phase == "play" and state.turn == 1  # pone leads
    state, _ = run(state, P(1, "KH"), P(0, "TD"), P(1, "9C"))
    assert state.count == 29 and state.turn == 0
    # The dealer holds 5D 6D 7D: nothing fits, so it must say go (playing is refused).
    assert legal_actions(state, 0) == (Go(0),)
    refused(state, P(0, "5D"), CountExceeds31, "past 31")
    state, events = apply(state, Go(0))
    assert kinds(events) == ["say_go"] and state.turn == 1
    # Pone holds AH 2C: both fit (30, 31), so go is refused; it plays on.
    refused(state, Go(1), IllegalAction, "fits")
    state, events = apply(state, P(1, "AH"))
    # Nobody can play now (2C would make 32): pone laid the last card and scores the go at once.
    assert kinds(events) == ["play", "go", "reset"]
    assert scored(events, "go") == [(1, 1)]
    assert state.count == 0 and state.series == () and state.scores == (0, 1)
    assert state.turn == 0  # the seat after the last player leads the next series


def test_a_seat_with_no_cards_is_skipped_and_last_card_scores_one():
    state, events = played(moves=GO_PLAY[:-1])
    assert state.hands[1] == () and state.turn == 0  # pone is out of cards: the dealer plays again
    state, events = apply(state, P(0, "7D"))
    assert kinds(events)[:2] == ["play", "last_card"]
    assert scored(events, "last_card") == [(0, 1)]
    assert state.phase == "show"


def test_go_for_the_last_player_when_the_other_has_no_cards():
    hands = ("TD KS QS JS 2D 3D", "9H 5C AH 8H 4C 6C")
    state = discarded(hands=hands, discards=("2D 3D", "4C 6C"), starter="7D")
    state, events = run(state, *parse_moves(["1 9H", "0 TD", "1 5C", "0 go", "1 AH"]))
    assert scored(events, "go") == [(1, 1)] and state.turn == 0 and state.hands[1] == (parse_card("8H"),)
    state, events = run(state, P(0, "KS"), P(1, "8H"))
    assert state.hands[1] == () and state.turn == 0 and state.count == 18
    # QS makes 28; the dealer's JS will not fit, pone has no cards: the go is scored at once,
    # the dealer never has to say go itself.
    state, events = apply(state, P(0, "QS"))
    assert kinds(events) == ["play", "go", "reset"] and scored(events, "go") == [(0, 1)]
    assert state.turn == 0 and state.count == 0
    state, events = apply(state, P(0, "JS"))
    assert scored(events, "last_card") == [(0, 1)] and state.phase == "show"
    pegged = [(e.seat, e.kind) for e in state.log if e.points and e.kind in ("go", "last_card")]
    assert pegged == [(1, "go"), (0, "go"), (0, "last_card")]


def test_31_scores_two_resets_at_once_and_the_other_seat_leads():
    hands = ("QS 4S 9D 8D TC JC", "KH 7C 2H 3H 5S 6S")
    state = discarded(MANUAL, hands=hands, discards=("TC JC", "5S 6S"), starter="AD")
    state, events = run(state, P(1, "KH"), P(0, "QS"), P(1, "7C"), P(0, "4S"))
    assert scored(events, "thirty_one") == [(0, 2)]
    assert kinds(events)[-1] == "reset" and "go" not in kinds(events)
    assert state.count == 0 and state.turn == 1  # pone, the seat after the dealer, leads
    state, events = run(state, P(1, "2H"), P(0, "9D"), P(1, "3H"), P(0, "8D"))
    assert scored(events, "last_card") == [(0, 1)]
    assert state.scores == (3, 0)


def test_31_with_the_last_card_scores_two_not_three():
    hands = ("KS KD QD JD 4D 5D", "KH AH QH AC 2C 3C")
    state = discarded(MANUAL, hands=hands, discards=("4D 5D", "2C 3C"), starter="6H")
    moves = ["1 KH", "0 KS", "1 AH", "0 KD", "1 QH", "0 QD", "1 AC", "0 JD"]
    state, events = run(state, *parse_moves(moves))
    assert scored(events, "thirty_one") == [(0, 2), (0, 2)]
    assert "last_card" not in kinds(events) and "go" not in kinds(events)
    assert scored(events, "pair") == [(0, 2), (0, 2)]
    assert state.scores == (8, 0)
    assert state.phase == "show"


def test_must_play_if_able():
    state, _ = run(discarded(), P(1, "KH"), P(0, "TD"))
    refused(state, Go(1), IllegalAction, "you hold a card that fits")
    assert Go(1) not in legal_actions(state, 1)


def test_pegging_scores_only_the_current_series():
    # After a reset the earlier cards no longer pair or run with the new ones.
    state, events = played(moves=GO_PLAY)
    assert scored(events, "pair") == [] and scored(events, "run") == []


# --- the starter --------------------------------------------------------------------------------


def test_his_heels_scores_two_for_the_dealer():
    state = discarded(starter="JH")
    assert state.scores == (2, 0) and state.back_pegs == (0, 0)
    assert "his_heels" in kinds(state.log) and state.phase == "play"


def test_his_heels_can_win_the_game():
    state = discarded(starter="JH", scores=(119, 100))
    assert state.phase == "match_over"
    assert state.scores == (121, 100) and state.match_winner == 0
    assert kinds(state.log)[-2:] == ["his_heels", "game_won"]
    assert state.results[-1].reason == "target" and state.results[-1].skunk == 0
