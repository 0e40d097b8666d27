"""Round history: every deal's summary, the per-seat rows, and the rebuild command."""

from __future__ import annotations

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

from games.engine.cards import parse_card, parse_cards
from games.engine.deck import commitment, deal_seed, shuffle
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.history.models import PlayerGame
from games.play.models import Game, Round
from tests.history.helpers import finish_between, finish_vs_computer, resign_after
from tests.play.factories import act, human_game, stack

pytestmark = pytest.mark.django_db


def _check_deal(game: Game, rnd: Round) -> None:
    s = rnd.summary
    assert (s["game_no"], s["deal_no"], s["dealer"]) == (rnd.game_no, rnd.deal_no, rnd.dealer)
    # The hands as dealt are the seed's deck, one card at a time, pone first.
    deck = shuffle(deal_seed(bytes.fromhex(game.secret), rnd.game_no, rnd.deal_no))
    assert commitment(deal_seed(bytes.fromhex(game.secret), rnd.game_no, rnd.deal_no)) == rnd.commitment
    pone, dealer = s["pone"], s["dealer"]
    assert set(s["hands"][pone]) == {str(c) for c in deck[0:12:2]}
    assert set(s["hands"][dealer]) == {str(c) for c in deck[1:12:2]}
    if s["starter"]:
        assert s["starter"] == str(deck[12])
        for seat in (0, 1):
            assert sorted(s["kept"][seat] + s["discards"][seat]) == sorted(s["hands"][seat])
        assert sorted(s["crib"]) == sorted(s["discards"][0] + s["discards"][1])
    # Every card laid in the play was kept by the seat that laid it.
    for line in s["pegging"]:
        if line["kind"] == "play":
            assert line["card"] in s["kept"][line["seat"]]
            assert line["points"] == sum(x["points"] for x in line["scores"])
    # Each show's breakdown adds up to its total, which is the engine's score of those cards.
    for entry in s["show"]:
        if entry["status"] == "skipped":
            continue
        crib = entry["kind"] == "crib"
        total = score_hand(parse_cards(entry["cards"]), parse_card(entry["starter"]), crib=crib)
        assert entry["total"] == total.total == sum(g["points"] for g in entry["groups"])
    # Points by category account for every point scored in the deal.
    for seat in (0, 1):
        assert s["scores_before"][seat] + sum(s["points"][seat].values()) == s["scores_after"][seat]
    assert (s["timeline"][-1] if s["timeline"] else s["scores_before"]) == s["scores_after"]


def test_every_deal_is_summarised_when_the_game_finishes(alice):
    game = finish_vs_computer(alice, seed=11)
    rounds = list(Round.objects.filter(game=game))
    assert rounds and all(r.summary.get("version") == 1 for r in rounds)
    for rnd in rounds:
        _check_deal(game, rnd)
    assert rounds[-1].summary["scores_after"] == game.result["scores"]
    assert [r.summary["complete"] for r in rounds[:-1]] == [True] * (len(rounds) - 1)
    assert rounds[-1].summary["won_by"] == game.winner_seat


def test_a_match_is_summarised_game_by_game(alice, bob):
    game = finish_between(alice, bob, seed=8, rules=HouseRules(target=61, match_games=3))
    rounds = list(Round.objects.filter(game=game))
    assert len({r.game_no for r in rounds}) == len(game.result["games"]) >= 2
    for rnd in rounds:
        _check_deal(game, rnd)
    for result in game.result["games"]:
        last = [r for r in rounds if r.game_no == result["game_no"]][-1]
        assert last.summary["scores_after"] == result["scores"]


def test_player_rows_hold_result_score_length_and_kind(alice, bob):
    game = finish_between(alice, bob, seed=6, rated=True)
    rows = {r.seat: r for r in PlayerGame.objects.filter(game=game)}
    winner, loser = rows[game.winner_seat], rows[1 - game.winner_seat]
    assert winner.result == "win" and loser.result == "loss"
    assert winner.score == max(game.result["scores"]) and winner.opponent_score == min(game.result["scores"])
    assert winner.margin == -loser.margin == winner.score - winner.opponent_score
    assert winner.deals == Round.objects.filter(game=game).count()
    assert winner.duration is not None and winner.rated and not winner.vs_computer
    assert {rows[0].user, rows[0].opponent} == {alice, bob}
    assert rows[0].opponent_name == "bob" and rows[1].opponent_name == "alice"
    skunk = game.result["games"][0]["skunk"]
    assert winner.skunks_given == loser.skunks_taken == (skunk >= 1)


def test_computer_seat_gets_a_row_too(alice):
    game = finish_vs_computer(alice, seed=3, rules=HouseRules(target=61))
    rows = PlayerGame.objects.filter(game=game).order_by("seat")
    assert [r.user for r in rows] == [alice, None]
    assert rows[0].opponent_name == "Computer (easy)" and rows[0].vs_computer


def test_a_resignation_mid_deal_leaves_an_unfinished_deal(alice, bob):
    game = resign_after(alice, bob, 20, resigner=0)
    last = Round.objects.filter(game=game).last()
    assert not last.summary["complete"]
    row = PlayerGame.objects.get(game=game, user=alice)
    assert row.result == "loss" and row.resigned


def test_games_in_progress_have_no_summaries_or_rows(alice, bob):
    game = human_game(alice, bob)
    act(game, alice, {"type": "cut_for_deal", "position": 1})
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    assert Round.objects.filter(game=game).count() == 1
    assert Round.objects.get(game=game).summary == {}
    assert not PlayerGame.objects.filter(game=game).exists()


def test_a_log_that_does_not_replay_still_gets_rows_and_the_game_finishes(alice, bob):
    game = human_game(alice, bob)
    stack(game, dealer=0, hands=("AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"), starter="7D", scores=(50, 60))
    act(game, alice, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    row = PlayerGame.objects.get(game=game, user=bob)
    assert row.result == "win" and not row.replayed and row.complete_deals_dealer == 0


def _rows() -> Counter:
    rows = PlayerGame.objects.values()
    return Counter(tuple(sorted((k, str(v)) for k, v in r.items() if k != "id")) for r in rows)


def test_the_rebuild_command_rebuilds_the_same_history(alice, bob):
    games = [finish_vs_computer(alice, seed=2, rules=HouseRules(target=61)), resign_after(alice, bob, 30)]
    before = {"rounds": list(Round.objects.order_by("pk").values_list("summary", flat=True)), "rows": _rows()}
    Round.objects.update(summary={})
    PlayerGame.objects.all().delete()
    out = StringIO()
    call_command("history_rebuild", stdout=out)
    assert "Rebuilt 2 finished games." in out.getvalue()
    assert list(Round.objects.order_by("pk").values_list("summary", flat=True)) == before["rounds"]
    assert _rows() == before["rows"]
    call_command("history_rebuild", "--game", str(games[0].pk), stdout=out)
    assert "Rebuilt 1 finished game." in out.getvalue()
