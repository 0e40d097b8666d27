"""What a table shows every reader, read from engine states: the go and 31 by the count, the play
left on the table when the game was won in it."""

from __future__ import annotations

from games.engine.actions import Discard
from games.engine.cards import parse_cards
from games.engine.game import GameState, apply
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.engine.view import public_view, view
from games.play.board.table import count_calls, table_context
from games.play.narration import Seating
from tests.engine.game_support import GO_PLAY, discarded, parse_moves

NAMES = ["You", "bob"]
# Seat 0 deals and keeps TD TS 5H 6C; bob keeps JH 6D 9C 8C; the starter is the King of clubs.
HANDS = ("TD TS 5H 6C 2C 3C", "JH 6D 9C 8C 4H AH")


def _calls(state: GameState, viewer: int = 0) -> list[str]:
    table = Seating(tuple(NAMES), viewer)
    return [f"{c.who}: {c.text}" if c.who else c.text for c in count_calls(view(state, viewer), table)]


def _laid_away(rules: HouseRules, scores=(0, 0)) -> GameState:
    state = start_deal(rules, dealer=0, hands=HANDS, starter="KC", scores=scores)
    for seat, cards in ((0, "2C 3C"), (1, "4H AH")):
        state, _ = apply(state, Discard(seat, parse_cards(cards)))
    return state


def _play(state: GameState, *moves: str) -> GameState:
    for action in parse_moves(moves):
        state, _ = apply(state, action)
    return state


def test_a_go_stands_by_the_count_until_the_series_ends():
    """GO_PLAY: bob K, you 10, bob 9 (29), you say go, bob's ace (30) and bob takes the go: the count
    goes back to 0, and the go scored stands by it until the next card."""
    state = discarded()
    seen = []
    for action in parse_moves(GO_PLAY)[:5]:
        state, _ = apply(state, action)
        seen.append(_calls(state))
    assert seen[:3] == [[], [], []]
    assert seen[3] == ["You: Go"]  # you said go: it stays by the count
    assert seen[4] == ["bob: Go for 1"]  # a new series: your go no longer matters


def test_thirty_one_stands_by_the_count_until_the_next_card():
    state = _play(_laid_away(HouseRules()), "1 JH", "0 TD", "1 6D", "0 5H")  # 10 + 10 + 6 + 5 = 31
    assert _calls(state) == ["You: 31 for 2"] and _calls(state, 1) == ["You: 31 for 2"]
    assert _calls(_play(state, "1 9C")) == []


def test_the_play_stays_on_the_table_when_the_game_is_won_in_it():
    state = _play(_laid_away(HouseRules(target=61), scores=(59, 40)), "1 JH", "0 5H")  # 15 for 2: 61
    assert state.phase == "match_over" and state.scores[0] == 61
    for v, me in ((view(state, 0), 0), (view(state, 1), 1), (public_view(state), None)):
        context = table_context(v, NAMES, me, log=[], result=None)
        assert context["pile_shown"], "the winning play is left on the table"
        assert [str(p["card"]) for p in context["pile"] if not p["earlier"]] == ["JH", "5H"] and v.count == 15
