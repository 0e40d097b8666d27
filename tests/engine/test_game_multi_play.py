"""Three-player and four-player (partners) cribbage, the play and the show: the go passes round and
seats out of cards are skipped, partners peg each other's pairs and share one score, the show counts
from the dealer's left, muggins is called by the next opponent (never the partner) and the peg-out
zone skips both partners.

Scenarios run from the stacked deals of ``tests/engine/game_support.py`` (RULES.md "Three and four
players").
"""

from __future__ import annotations

from games.engine.actions import AcceptCount, CallMuggins, Count, Go
from games.engine.cards import parse_card
from games.engine.errors import IllegalAction, NotYourTurn
from games.engine.game import apply, legal_actions
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.engine.testing import start_deal
from tests.engine.game_support import (
    FOUR,
    HANDS3,
    HANDS4,
    PEG4,
    PLAY3,
    PLAY4,
    STARTER3,
    STARTER4,
    D,
    P,
    all_views,
    deal3,
    deal4,
    kinds,
    lay_away_last,
    parse_moves,
    refused,
    run,
    scored,
)

# --- the play -----------------------------------------------------------------------------------


def test_three_player_go_passes_round_and_seats_out_of_cards_are_skipped():
    state = lay_away_last(deal3(), HANDS3)
    assert state.turn == 0  # the dealer's left leads
    moves = parse_moves(PLAY3)
    state, events = run(state, *moves[:3])
    assert state.count == 28 and scored(events, "pair") == [(2, 2)] and state.turn == 0
    assert legal_actions(state, 0) == (Go(0),)  # tens only
    refused(state, Go(1), NotYourTurn)
    state, events = apply(state, Go(0))
    assert kinds(events) == ["say_go"] and state.gone == (True, False, False) and state.turn == 1
    refused(state, Go(1), IllegalAction, "fits")  # 2S and 3S fit
    state, events = apply(state, P(1, "3S"))
    assert scored(events, "thirty_one") == [(1, 2)] and kinds(events)[-1] == "reset"
    assert state.turn == 2 and state.gone == (False, False, False)  # left of the last card leads
    state, events = run(state, *moves[5:11])
    assert state.count == 30 and state.hands[1] == () and state.turn == 2
    assert state.gone == (True, False, False)
    state, events = apply(state, Go(2))
    # Seat 0 said go, seat 1 has no cards, seat 2 said go: seat 1 laid the last card: go for 1.
    assert kinds(events) == ["say_go", "go", "reset"] and scored(events, "go") == [(1, 1)]
    assert state.turn == 2  # next clockwise after seat 1 that holds cards
    state, _ = apply(state, P(2, "4D"))
    assert state.turn == 0
    state, _ = apply(state, P(0, "QH"))
    assert state.turn == 0  # seats 1 and 2 have no cards: seat 0 plays on
    state, events = apply(state, P(0, "KH"))
    assert scored(events, "last_card") == [(0, 1)]
    assert state.phase == "show"
    assert [s for s, _ in state.plays] == [0, 1, 2, 1, 2, 0, 1, 2, 1, 2, 0, 0]
    assert state.scores[:2] == (1 + 10, 3 + 4)


def test_three_player_show_counts_from_the_dealers_left_then_the_crib():
    state, events = run(lay_away_last(deal3(), HANDS3), *parse_moves(PLAY3))
    starter = parse_card(STARTER3)
    assert [(e.seat, e.kind) for e in state.show] == [(0, "hand"), (1, "hand"), (2, "hand"), (2, "crib")]
    assert [(e.seat, e.kind) for e in events if e.kind in ("hand", "crib")] == [
        (0, "hand"), (1, "hand"), (2, "hand"), (2, "crib")]
    hands = [score_hand(state.kept[s], starter).total for s in range(3)]
    crib = score_hand(state.crib, starter, crib=True).total
    assert hands == [10, 4, 8] and crib == 8  # 4-5-6-7 with a 2: no five-card flush in the crib
    # Pegging: seat 0 last card 1; seat 1 31 for 2 and a go; seat 2 a pair.
    assert state.scores == (1 + 10, 3 + 4, 2 + 8 + 8)
    assert state.to_act == (0, 1, 2)


def test_three_player_first_to_count_out_wins():
    # Seats 1 and 2 would both count out too; seat 0 counts first and wins before either.
    state = lay_away_last(deal3(scores=(110, 114, 111)), HANDS3)
    state, events = run(state, *parse_moves(PLAY3))
    assert state.phase == "match_over" and state.match_winner == 0
    assert [e.kind for e in events][-2:] == ["hand", "game_won"]
    result = state.results[-1]
    assert result.scores == (121, 117, 113) and result.winner == 0
    assert (events[-1].scores, events[-1].skunks, events[-1].detail) == ((121, 117, 113), (0, 0, 0), "target")


def test_four_player_partners_share_one_score_and_peg_each_others_pairs():
    state = lay_away_last(deal4(), HANDS4)
    assert state.turn == 0 and state.scores == (0, 0)
    moves = parse_moves(PLAY4)
    state, events = run(state, *moves[:4])
    # Pairs count whoever laid the cards; points go to the side of the seat laying the last card.
    assert scored(events, "pair") == [(1, 2), (2, 6), (3, 12)] and scored(events, "fifteen") == [(2, 2)]
    assert state.scores == (8, 14) and state.back_pegs == (2, 2)  # one back peg per side
    state, _ = apply(state, moves[4])
    assert state.count == 30
    for seat in (1, 2, 3):  # the go passes round the table
        assert state.turn == seat and legal_actions(state, seat) == (Go(seat),)
        state, _ = apply(state, Go(seat))
    assert state.turn == 0 and legal_actions(state, 0) == (P(0, "AH"),)
    state, events = apply(state, moves[8])
    assert scored(events, "thirty_one") == [(0, 2)] and state.turn == 1
    state, events = run(state, *moves[9:15])
    # Nobody can play after 30: seat 3 laid the last card and scores the go without saying it.
    assert kinds(events)[-4:] == ["say_go", "say_go", "go", "reset"] and scored(events, "go") == [(3, 1)]
    assert state.turn == 0
    state, events = run(state, *moves[15:22])
    assert state.hands[0] == () and scored(events, "go") == [(2, 1)] and state.turn == 3
    state, events = apply(state, moves[22])
    assert scored(events, "last_card") == [(3, 1)] and state.phase == "show"
    pegged = PEG4
    starter = parse_card(STARTER4)
    hands = [score_hand(state.kept[s], starter).total for s in range(4)]
    crib = score_hand(state.crib, starter, crib=True).total
    assert [(e.seat, e.kind) for e in state.show] == [(0, "hand"), (1, "hand"), (2, "hand"), (3, "hand"),
                                                       (3, "crib")]
    assert state.scores == (pegged[0] + hands[0] + hands[2], pegged[1] + hands[1] + hands[3] + crib)
    for v in all_views(state):
        assert v.scores == state.scores and v.my_score == state.scores[v.seat % 2]


def test_four_player_partnership_wins_and_the_losers_are_skunked():
    state = lay_away_last(deal4(scores=(110, 0)), HANDS4)
    moves = parse_moves(PLAY4)
    state, events = run(state, *moves[:11])  # seat 2 pairs the king: side 0 reaches 122
    assert state.phase == "match_over" and state.match_winner == 0 and state.match_scores == (4, 0)
    result = state.results[-1]
    assert (result.winner, result.scores, result.loser_score) == (0, (122, 14), 14)
    assert (result.skunk, result.skunks, result.value) == (2, (0, 2), 4)
    assert events[-1].kind == "game_won" and events[-1].seat == 0
    assert (events[-1].scores, events[-1].skunks) == ((122, 14), (0, 2))
    for v in all_views(state):
        assert v.result == result and v.match_winner == 0


def test_his_heels_scores_for_the_dealers_partnership():
    state = start_deal(FOUR, dealer=1, hands=HANDS4, starter="JS", scores=(5, 7))
    state, events = run(state, *(D(s, h.split()[-1]) for s, h in enumerate(HANDS4)))
    assert scored(events, "his_heels") == [(1, 2)] and state.scores == (5, 9)


# --- the show with manual counting and muggins -------------------------------------------------


def test_three_player_muggins_is_called_by_the_next_opponent_clockwise():
    rules = HouseRules(players=3, manual_counting=True, muggins=True)
    state, _ = run(lay_away_last(deal3(rules), HANDS3), *parse_moves(PLAY3))
    assert state.turn == 0 and state.show[-1].status == "due"
    state, _ = apply(state, Count(0, 6))  # worth 10
    assert state.turn == 1 and legal_actions(state, 1) == (CallMuggins(1), AcceptCount(1))
    refused(state, CallMuggins(2), NotYourTurn, r"seat 1\) can call muggins")
    refused(state, AcceptCount(2), NotYourTurn, "accept the count")
    assert legal_actions(state, 2) == ()
    before = state.scores
    state, events = apply(state, CallMuggins(1))
    assert scored(events, "muggins") == [(1, 4)] and state.scores == (before[0], before[1] + 4, before[2])
    assert state.turn == 1  # seat 1 counts next
    state, _ = apply(state, Count(1, 4))
    assert state.turn == 2
    state, _ = run(state, AcceptCount(2), Count(2, 8))
    assert state.turn == 0  # the dealer's hand is checked by the seat on its left
    state, _ = run(state, AcceptCount(0), Count(2, 8))
    assert state.turn == 0 and state.show[-1].kind == "crib"
    state, _ = apply(state, AcceptCount(0))
    assert state.turn is None and state.to_act == (0, 1, 2)


def test_four_player_muggins_never_asks_the_partner():
    rules = HouseRules(players=4, manual_counting=True, muggins=True)
    state, _ = run(lay_away_last(deal4(rules), HANDS4), *parse_moves(PLAY4))
    callers = []
    while state.turn is not None:
        entry = state.show[-1]
        state, _ = apply(state, Count(entry.seat, 0))
        if state.show[-1].status != "muggins":
            continue
        caller = state.turn
        callers.append((entry.seat, caller))
        partner = (entry.seat + 2) % 4
        refused(state, CallMuggins(partner), NotYourTurn)
        state, events = apply(state, CallMuggins(caller))
        assert events[0].seat == caller
    assert callers == [(0, 1), (1, 2), (2, 3), (3, 0), (3, 0)]


def test_four_player_peg_out_zone_skips_both_partners():
    rules = HouseRules(players=4, peg_out_zone=5)
    state = lay_away_last(deal4(rules, scores=(103, 0)), HANDS4)
    state, events = run(state, *parse_moves(PLAY4))
    assert state.scores[0] == 116  # pegged 13: within five of 121 when the show begins
    assert state.show_zoned == (True, False, True, False)
    assert [(e.seat, e.status) for e in state.show] == [
        (0, "skipped"), (1, "done"), (2, "skipped"), (3, "done"), (3, "done")]
    assert scored(events, "peg_out_zone") == [(0, 0), (2, 0)]
    assert state.scores[0] == 116
