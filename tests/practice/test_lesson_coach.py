"""The lesson's explanations, checked against the engine's own counts: the words a step says name
each scoring event the engine emitted and the total it pegged; a hand's calls end on the engine's
count; the advice lays away what the hint's valuation ranks first."""

from __future__ import annotations

import random
import re

import pytest

from games.engine.actions import Discard, Go, Play
from games.engine.cards import parse_card, parse_cards
from games.engine.deck import deal_seed, shuffle
from games.engine.game import apply, legal_actions
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.engine.testing import start_deal
from games.engine.view import view
from games.play.board.player import expert_discards
from games.practice.lesson import coach, deals, words

WORD_NUMBERS = {w: n for n, w in enumerate(words.NUMBER_WORDS)}


def dealt(learner: str, computer: str, starter: str, *, dealer: int = 1):
    """A deal with the learner in seat 0: their six cards, the computer's, the starter."""
    return start_deal(HouseRules(), dealer=dealer, hands=[learner, computer], starter=starter)


def laid_away(state, learner: str, computer: str):
    state, _ = apply(state, Discard(0, tuple(parse_cards(learner))))
    state, _ = apply(state, Discard(1, tuple(parse_cards(computer))))
    return state


def said(v) -> str:
    return " ".join(coach.explain(v)["lines"])


def test_a_card_making_fifteen_and_a_pair_is_called_as_the_engine_pegs_it():
    state = laid_away(dealt("3H 6H KS KC QD 2C", "6S 9C 9D AS TC 4H", "8D"), "KS KC", "TC 4H")
    state, _ = apply(state, Play(0, parse_card("3H")))
    state, _ = apply(state, Play(1, parse_card("6S")))
    state, events = apply(state, Play(0, parse_card("6H")))
    pegged = sum(e.points for e in events if e.kind in words.PEGGING_KINDS)
    assert pegged == 4
    text = said(view(state, 0))
    assert "You played 6♥" in text and "the count is 15" in text
    assert f"You peg {pegged}: fifteen two and a pair for two." in text
    # The computer's turn now: nothing about its cards beyond those on the table.
    assert "9♣" not in text and "A♠" not in text


def test_the_learner_s_card_stays_explained_while_the_computer_answers():
    state = laid_away(dealt("3H 6H KS KC QD 2C", "6S 9C 9D AS TC 4H", "8D"), "KS KC", "TC 4H")
    state, _ = apply(state, Play(0, parse_card("3H")))
    state, _ = apply(state, Play(1, parse_card("6S")))
    state, _ = apply(state, Play(0, parse_card("6H")))
    state, events = apply(state, Play(1, parse_card("9C")))
    text = said(view(state, 0))
    assert "You peg 4: fifteen two and a pair for two." in text
    assert f"The computer played {words.cards(parse_cards('9C'))}: the count is 24." in text


@pytest.mark.parametrize("seed", range(12))
def test_every_scoring_step_of_a_deal_names_the_engine_s_events_and_total(seed):
    """Random deals played out by random legal moves: each card that scored is called with every
    event the engine pegged on it (fifteens, pairs, runs, the go, thirty-one, last card)."""
    rng = random.Random(seed)
    deck = shuffle(deal_seed(seed.to_bytes(4, "big"), 0, 0))
    hands = [" ".join(str(c) for c in deck[i:12:2]) for i in (0, 1)]
    state = dealt(*hands, str(deck[12]), dealer=seed % 2)
    seen_kinds = set()
    while state.phase in ("discard", "play"):
        seat = state.to_act[0] if state.phase == "discard" else state.turn
        state, events = apply(state, rng.choice(legal_actions(state, seat)))
        scored = [e for e in events if e.kind in words.PEGGING_KINDS and e.kind != "his_heels"]
        if not scored or state.phase not in ("play", "show"):
            continue
        step = words.play_steps(state.log)[-1]
        assert step.points == sum(e.points for e in scored)
        text = words.step_sentence(step, 0, coach.COMPUTER)
        for seat_scoring in {e.seat for e in scored}:
            total = sum(e.points for e in scored if e.seat == seat_scoring)
            assert f"peg{'' if seat_scoring == 0 else 's'} {total}:" in text
        for e in scored:
            assert words.score_words(e) in text
            seen_kinds.add(e.kind)
    assert seen_kinds  # every deal scores something in the play: at least the last card


@pytest.mark.parametrize("series, called", [
    ("7H 8S", ["fifteen two"]),
    ("5H 5S", ["a pair for two"]),
    ("5H 5S 5D", ["fifteen two", "a pair royal (three alike) for six"]),
    ("2H 2S 2D 2C", ["a double pair royal (four alike) for twelve"]),
    ("4H 6S 5D", ["fifteen two", "a run of three for three"]),
    ("3C 4H 6S 5D", ["a run of four for four"]),
    ("TH JS AD KD", ["thirty-one for two"]),
])
def test_the_words_for_each_pegging_score_are_the_engine_s_parts(series, called):
    from games.engine.scoring import score_pegging

    parts = score_pegging(parse_cards(series)).parts
    assert [words.score_words(p) for p in parts] == called


@pytest.mark.parametrize("hand, starter", [
    ("5H 5C 5S JD", "5D"),  # the 29
    ("3H 3S 4D 5C", "6C"),  # a double run of four with fifteens
    ("2H 4H 6H 8H", "9H"),  # a five-card flush
    ("7H 7C 7S 8D", "9H"),  # 21
    ("AS 3D 9C QH", "6S"),  # nothing: "nineteen"
    ("JH 4C 9S KD", "7H"),  # his nobs
])
def test_a_hand_is_called_line_by_line_to_the_engine_s_count(hand, starter):
    score = score_hand(parse_cards(hand), parse_card(starter))
    calls = words.show_calls(score.groups)
    assert len(calls) == len(score.groups)
    running = 0
    for call, group in zip(calls, score.groups, strict=True):
        running += group.points
        said_total = re.search(r"\b(?:fifteen|is) (\w+) \(", call, re.I).group(1)
        assert WORD_NUMBERS.get(said_total, said_total) in (running, str(running))
    assert running == score.total


def test_the_show_is_counted_together_in_the_engine_s_order_with_its_totals():
    state = laid_away(dealt("5H 5C TS JD 2C 9D", "4S 6C 7D 8H KC QS", "5S"), "2C 9D", "KC QS")
    while state.phase == "play":
        seat = state.turn
        state, _ = apply(state, legal_actions(state, seat)[0])
    panel = coach.explain(view(state, 0))
    shows = panel["shows"]
    leads = [s["lead"].split(" (")[0] for s in shows]
    assert leads == ["Your hand", "The computer's hand", "The computer's crib"]
    for shown, entry in zip(shows, view(state, 0).show, strict=True):
        assert shown["total"] == entry.total
        assert shown["sum"] == f"That is {entry.total}."
    assert shows[0]["total"] == score_hand(parse_cards("5H 5C TS JD"), parse_card("5S")).total


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_discard_advice_names_the_hint_s_first_split_and_its_points(dealer):
    state = dealt("5H 5C TS JD 2C 9D", "4S 6C 7D 8H KC QS", "3S", dealer=dealer)
    v = view(state, 0)
    best = expert_discards(v)[0]["option"]
    text = said(v)
    assert f"lay away {words.cards(best.laid_away)} and keep {words.cards(best.kept)}" in text
    assert f"{best.net:.1f} in all" in text and f"{best.expected_hand:.1f} points in your hand" in text
    assert ("your crib" in text) == (dealer == 0)
    assert "4♠" not in text and "Q♠" not in text  # the computer's cards


def test_the_tip_for_the_play_scores_what_the_engine_would_peg():
    state = laid_away(dealt("3H 6H KS KC QD 2C", "6S 9C 9D AS TC 4H", "8D"), "KS KC", "TC 4H")
    state, _ = apply(state, Play(0, parse_card("3H")))
    state, _ = apply(state, Play(1, parse_card("6S")))
    tip = coach.best_play(view(state, 0))
    assert tip == "Your 6♥︎ would score 4: fifteen two and a pair for two."
    _, events = apply(state, Play(0, parse_card("6H")))
    assert sum(e.points for e in events) == 4


def test_a_go_is_explained_as_it_comes():
    state = laid_away(dealt("KH QH JS TC 2C 3C", "7S AS 9S 9C 4D 4H", "4S"), "2C 3C", "4D 4H")
    for seat, card in ((0, "KH"), (1, "7S"), (0, "QH"), (1, "AS")):
        state, _ = apply(state, Play(seat, parse_card(card)))
    text = said(view(state, 0))  # the count is 28 and the learner holds only tens
    assert "You have no card that keeps the count at 31 or under: say Go." in text
    state, events = apply(state, Go(0))
    assert [(e.seat, e.points) for e in events if e.kind == "go"] == [(1, 1)]
    text = said(view(state, 0))
    assert ("You cannot lay a card without passing 31, so you say “go”. "
            "The computer pegs 1: one for the go.") in text


def test_a_go_said_by_the_computer_scores_for_the_learner():
    state = laid_away(dealt("KH QH JS TC 2C 3C", "9S 9C 8D 7S AC AD", "4D"), "2C 3C", "AC AD")
    for seat, card in ((0, "KH"), (1, "9S"), (0, "QH")):
        state, _ = apply(state, Play(seat, parse_card(card)))
    state, events = apply(state, Go(1))  # the count is 29: nothing of either player's fits
    assert [(e.seat, e.points) for e in events if e.kind == "go"] == [(0, 1)]
    text = said(view(state, 0))
    assert ("The computer cannot lay a card without passing 31, so says “go”. You peg 1: one for the go. "
            "The count starts again from 0.") in text


def test_the_cut_the_crib_and_the_skunk_lines():
    state = start_deal(HouseRules(), dealer=1, hands=["AH 2H 3H 4H 5H 6H", "AS 2S 3S 4S 5S 6S"], starter="7D")
    text = said(view(state, 0))
    assert "the crib is its own" in text
    skunk = coach._skunk_lines(view(state, 0), 0)
    assert "loses with 90 or fewer points (short of 91) is skunked" in skunk
    assert "with 60 or fewer (short of 61), double-skunked" in skunk


def test_the_lesson_seed_is_drawn_until_its_first_deals_teach_whoever_deals():
    def first_deals_teach(seed: bytes) -> bool:
        return all(deals.teaches(shuffle(deal_seed(seed, 0, n))) for n in range(deals.PREPARED_DEALS))

    rng = random.Random(7)
    candidates = [rng.randbytes(32) for _ in range(40)]
    bad = next(c for c in candidates if not first_deals_teach(c))
    good = next(c for c in candidates if first_deals_teach(c))
    drawn = iter([bad, bad, good])
    assert deals.lesson_secret(lambda n: next(drawn)) == good.hex()
    assert first_deals_teach(bytes.fromhex(deals.lesson_secret()))


@pytest.mark.parametrize("scores", [(120, 40), (40, 120)])
def test_the_game_s_end_says_who_won_the_skunk_and_offers_a_normal_game(scores):
    rng = random.Random(1)
    state = start_deal(HouseRules(), dealer=1, hands=["AH 2H 3H 4H 5H 6H", "AS 2S 3S 4S 5S 6S"],
                       starter="KD", scores=scores)
    while state.phase not in ("game_over", "match_over"):
        seat = state.to_act[0] if state.phase == "discard" else state.turn
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    panel = coach.explain(view(state, 0))
    won = view(state, 0).result.winner == 0
    assert panel["lines"][0] == ("You won the game. Well played!" if won else "The computer won this time.")
    assert won == (scores[0] == 120)
    assert "90 or fewer points" in panel["lines"][1] and panel["offer"] is True
