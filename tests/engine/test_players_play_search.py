"""Pegging for computer players: the points of a card, the greedy rule, the lookahead, the endgame."""

from __future__ import annotations

import random

import pytest

from games.engine.actions import Discard, Play
from games.engine.cards import DECK, parse_card, parse_cards
from games.engine.events import Event
from games.engine.game import apply, legal_actions
from games.engine.players import play_search, sampling, situation
from games.engine.players.choose import _opp_min_value, peg_situation
from games.engine.players.play_search import PegSituation, greedy_play, points_for, search_play
from games.engine.rules import HouseRules
from games.engine.scoring import hand_total, pegging_total
from games.engine.testing import start_deal
from games.engine.view import view


def random_series(rng: random.Random) -> list:
    cards = rng.sample(DECK, 10)
    series, count = [], 0
    for c in cards:
        if count + c.value > 31:
            break
        series.append(c)
        count += c.value
    return series


def test_points_agree_with_the_engine_scorer() -> None:
    rng = random.Random(4)
    for _ in range(3000):
        series = random_series(rng)
        if not series:
            continue
        ranks = tuple(c.rank for c in series)
        count = sum(c.value for c in series[:-1])
        assert points_for(ranks[:-1], count, ranks[-1]) == pegging_total(series), series


def test_all_replies_agree_with_points_for() -> None:
    rng = random.Random(6)
    for _ in range(3000):
        ranks = tuple(c.rank for c in random_series(rng))
        count = sum(min(r, 10) for r in ranks)
        replies = situation._all_replies(ranks)
        for r in range(1, 14):
            expected = points_for(ranks, count, r) if count + min(r, 10) <= 31 else -1
            assert replies[r] == expected, (ranks, r)


def sit(hand: str, series: str = "", *, opp_cards: int = 4, unseen=None, **kw) -> PegSituation:
    mine = parse_cards(hand)
    laid = parse_cards(series) if series else ()
    if unseen is None:
        unseen = tuple(c for c in DECK if c not in mine and c not in laid)
    return PegSituation(
        hand=mine, opp_cards=opp_cards, series=laid, count=sum(c.value for c in laid), opp_gone=False,
        unseen=tuple(unseen), **kw,
    )


@pytest.mark.parametrize("chooser", [greedy_play, lambda s: search_play(s, random.Random(1))])
def test_takes_a_free_31_and_a_pair_royal(chooser) -> None:
    assert chooser(sit("AH 2C 9D", "KS QD 9H", opp_cards=1)) == parse_card("2C")  # 29 + 2 = 31
    assert chooser(sit("7H 2C 9D", "7S 7D")) == parse_card("7H")  # pair royal for 6


def test_standard_avoids_leaving_five_or_twenty_one() -> None:
    # Leading, nothing scores: the 4 leaves a count no single card makes 15 of; the K lets a five do it.
    assert greedy_play(sit("4H KC")) == parse_card("4H")
    # Count 11: a K makes 21 (a ten-card then makes 31), a 3 makes 14; choose the 3.
    assert greedy_play(sit("KH 3C", "6S 5D")) == parse_card("3C")


def test_expert_does_not_lead_a_five() -> None:
    choice = search_play(sit("5H 9C JD QS"), random.Random(2))
    assert choice != parse_card("5H")


def known(hand: str, opp: str, my_score: int, opp_score: int) -> PegSituation:
    """I lead; the opponent's two cards are known (the only unseen ones), so the search is exact."""
    return PegSituation(
        hand=parse_cards(hand), opp_cards=2, series=(), count=0, opp_gone=False, unseen=parse_cards(opp),
        my_score=my_score, opp_score=opp_score, my_show=0, starter=parse_card("KS"),
    )


@pytest.mark.parametrize("by_chances", [False, True])
def test_expert_plays_to_peg_out_rather_than_for_points(by_chances) -> None:
    # Far from the end a nine leads for the most points; needing 2, the eight wins in every line
    # (8-7 then 9 is a run, 8-8 then the nine and the go and the last card).
    assert search_play(known("8S 9C 9H", "8C 7C", 0, 0), random.Random(1), by_chances).rank == 9
    assert search_play(known("8S 9C 9H", "8C 7C", 119, 91), random.Random(1), by_chances) == parse_card("8S")


@pytest.mark.parametrize("by_chances", [False, True])
def test_expert_holds_the_opponent_back_when_one_point_wins_it(by_chances) -> None:
    # The opponent needs a single point: lead the six, after which nothing they hold scores.
    assert search_play(known("6H QD 6D", "7D KH", 0, 0), random.Random(1), by_chances) == parse_card("QD")
    assert search_play(known("6H QD 6D", "7D KH", 91, 120), random.Random(1), by_chances).rank == 6


def test_in_winning_chances_a_leaf_is_the_show_then_the_next_deal() -> None:
    # Pone at 100 against 110, both hands known to count 6: whatever the play, the chance is the
    # table's after pone's show, the dealer's show and a crib.
    from games.engine.players.play_end_chances import LeafChances, crib_odds
    from games.engine.winprob import win_chance

    leaf = LeafChances(121, i_am_dealer=False)
    expected = sum(q * win_chance(106, 116 + c, True) for c, q in crib_odds())
    assert leaf.value(21, 11, 6, 6) == pytest.approx(100 * (2 * expected - 1))
    assert sum(q for _, q in crib_odds()) == pytest.approx(1.0)


def test_opponent_min_value_from_goes() -> None:
    class Log:  # the one field _opp_min_value reads
        def __init__(self, *events: Event) -> None:
            self.log = events

    plays = [Event(s, "play", 0, parse_cards(c)) for s, c in ((0, "TS"), (1, "KS"), (0, "9D"))]
    assert _opp_min_value(Log(*plays), 1) == 1  # nothing known yet
    # The opponent said go at 29: every card they still hold is worth at least 3.
    assert _opp_min_value(Log(*plays, Event(1, "say_go")), 1) == 3
    # A go scored at 25 (nobody could play) says the same about 7s and up; a reset starts over.
    later = [Event(1, "play", 0, parse_cards("5C")), Event(1, "go", 1), Event(None, "reset")]
    assert _opp_min_value(Log(*plays[:2], *later), 1) == 32 - 25
    assert _opp_min_value(Log(Event(0, "say_go")), 1) == 1  # my own go says nothing of theirs


def test_peg_situation_sees_only_the_view() -> None:
    state = start_deal(HouseRules(), dealer=0, hands=("TD 5D 6D 7D 8S 9S", "KH 9C AH 2C 3S 4S"),
                       starter="5C")
    state, _ = apply(state, Discard(0, parse_cards("8S 9S")))
    state, _ = apply(state, Discard(1, parse_cards("3S 4S")))
    state, _ = apply(state, Play(1, parse_card("KH")))
    s = peg_situation(view(state, 0))
    assert set(s.hand) == set(parse_cards("TD 5D 6D 7D"))
    assert s.opp_cards == 3 and s.count == 10 and s.series == parse_cards("KH")
    hidden = set(parse_cards("9C AH 2C 3S 4S"))
    assert hidden <= set(s.unseen)  # the opponent's cards and discards are unknown to seat 0
    assert len(s.unseen) == 52 - 6 - 1 - 1  # my six, the starter, the KH
    assert s.i_am_dealer and s.my_show == hand_total(parse_cards("TD 5D 6D 7D"), parse_card("5C"))


PEG_KINDS = {"fifteen", "thirty_one", "pair", "run", "go", "last_card"}


def _exhaustive(state, me: int) -> int:
    """Minimax of the rest of the play through the engine itself: pegging points, me minus them."""
    if state.phase != "play":
        return 0
    values = []
    for action in legal_actions(state, state.turn):
        after, events = apply(state, action)
        gained = sum(e.points if e.seat == me else -e.points for e in events if e.kind in PEG_KINDS)
        values.append(gained + _exhaustive(after, me))
    return max(values) if state.turn == me else min(values)


def test_solver_agrees_with_the_engine_on_known_hands() -> None:
    # With both hands known, the search's value is the exact minimax of the engine's own play.
    rng = random.Random(5)
    checked = 0
    while checked < 15:
        cards = rng.sample(DECK, 13)
        state = start_deal(HouseRules(), dealer=0, hands=(cards[:6], cards[6:12]), starter=cards[12])
        state, _ = apply(state, Discard(0, tuple(cards[4:6])))
        state, _ = apply(state, Discard(1, tuple(cards[10:12])))
        for _ in range(rng.randint(1, 3)):
            if state.phase == "play":
                state, _ = apply(state, rng.choice(legal_actions(state, state.turn)))
        if state.phase != "play" or not any(isinstance(a, Play) for a in legal_actions(state, state.turn)):
            continue
        me = state.turn
        mine = tuple(sorted(c.rank for c in state.hands[me]))
        theirs = tuple(sorted(c.rank for c in state.hands[1 - me]))
        series = tuple(c.rank for _, c in state.series)
        s = PegSituation(state.hands[me], len(theirs), tuple(c for _, c in state.series), state.count,
                         state.gone[1 - me], ())
        solver = play_search._Solver(s, None, {}, False)
        solver.horizon = False
        best = max(
            solver.play(mine[:i] + mine[i + 1:], theirs, series, state.count, r,
                        situation._replies(series)[r], True, False, state.gone[1 - me], situation.FAR,
                        situation.FAR, 0.0, -200, 200)
            for i, r in enumerate(mine) if state.count + min(r, 10) <= 31
        )
        assert best == _exhaustive(state, me), (state.hands, state.series)
        checked += 1


def test_a_hand_that_passed_up_points_is_less_likely() -> None:
    # The opponent answered my 10 with a 3. Had they held a 5 they would (likely) have made 15.
    s = PegSituation(hand=parse_cards("2H 9C"), opp_cards=3, series=parse_cards("TS 3D"), count=13,
                     opp_gone=False, unseen=(), opp_played=parse_cards("3D"), opp_history=(((10,), 3),))
    assert sampling._history_likelihood(s, (5, 8, 13)) < sampling._history_likelihood(s, (7, 8, 13)) == 1.0


def test_kept_samples_respect_the_goes_and_end() -> None:
    # The opponent said go at 28: their two cards are 4s or better. Every sample must agree.
    unseen = tuple(c for c in DECK if c not in parse_cards("AH 2H 3H 4H TS QD 5C"))
    s = PegSituation(hand=parse_cards("AH 2H"), opp_cards=2, series=(), count=0, opp_gone=False,
                     unseen=unseen, opp_min_value=4, opp_played=parse_cards("TS QD"))
    exact, hands = sampling._opponent_hands(s, random.Random(3))
    assert not exact
    for _, (weight, ranks) in zip(range(50), hands, strict=False):
        assert len(ranks) == 2 and all(min(r, 10) >= 4 for r in ranks) and weight > 0


def _chance_minimax(state, me: int, leaf, scores: tuple[int, int], shows: tuple[int, int]) -> float:
    """The rest of the play through the engine, each end of it valued by ``leaf`` at the needs it
    leaves; a side pegging out wins outright."""
    if state.phase != "play":
        need = [121 - scores[0], 121 - scores[1]]
        return leaf.value(need[me], need[1 - me], shows[me], shows[1 - me])
    values = []
    for action in legal_actions(state, state.turn):
        after, events = apply(state, action)
        now = list(scores)
        for e in events:
            if e.kind in PEG_KINDS:
                now[e.seat] += e.points
        if max(now) >= 121:
            values.append(situation.WIN if now[me] >= 121 else -situation.WIN)
        else:
            values.append(_chance_minimax(after, me, leaf, tuple(now), shows))
    return max(values) if state.turn == me else min(values)


def test_far_from_the_end_a_line_is_worth_the_chance_it_leaves() -> None:
    # Pone at 65 against 55, both hands counting 4. Every card leaves the same pegging margin, but
    # not the same game: the four (a pair, then what the dealer's 2, 5 and ten can answer) leaves
    # about two points of chance more than the two or the queen.
    import dataclasses

    from games.engine.players.play_end_chances import LeafChances
    from games.engine.testing import with_scores

    state = start_deal(HouseRules(), dealer=0, hands=("2D TC 5H 4S JC 7S", "QC 4C 6H 2C TS 3H"), starter="9C")
    state = with_scores(state, (55, 65))
    state, _ = apply(state, Discard(0, parse_cards("JC 7S")))
    state, _ = apply(state, Discard(1, parse_cards("TS 3H")))
    state, _ = apply(state, Play(1, parse_card("6H")))
    state, _ = apply(state, Play(0, parse_card("4S")))
    # The search knows the dealer's three cards (the only unseen ones), so it is exact.
    sit = dataclasses.replace(peg_situation(view(state, 1)), unseen=tuple(state.hands[0]))
    assert not play_search.endgame_matters(sit)
    in_points = play_search.search_values(sit, random.Random(1))
    in_chances = play_search.search_values(sit, random.Random(1), by_chances=True)
    assert not in_points.in_chances and len({in_points.value(r) for r in (2, 4, 12)}) == 1
    assert in_chances.in_chances and in_chances.best() == parse_card("4C")
    leaf = LeafChances(121, i_am_dealer=False)
    for card in parse_cards("2C 4C QC"):
        after, events = apply(state, Play(1, card))
        scores = [55, 65]
        for e in events:
            if e.kind in PEG_KINDS:
                scores[e.seat] += e.points
        exact = _chance_minimax(after, 1, leaf, tuple(scores), (4, 4))
        assert in_chances.value(card.rank) == pytest.approx(exact, abs=0.01)
    assert in_chances.value(4) - in_chances.value(2) > 4  # two points of chance: WIN x 2 x 0.02
