"""After-game discard analysis on the record page."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games.engine.players import analyse_discard
from games.engine.rules import HouseRules
from games.history.analysis import discard_report, discard_verdicts
from games.history.tasks import analyse
from games.play.models import Round
from tests.history.helpers import expert_discards, finish_vs_computer
from tests.play.factories import computer_game, play_out

pytestmark = pytest.mark.django_db
SHORT = HouseRules(target=61)


def test_totals_add_up_and_every_deal_is_judged(alice):
    game = finish_vs_computer(alice, seed=3, rules=SHORT)
    report = discard_report(game)
    verdicts = report["verdicts"]
    rounds = [r for r in Round.objects.filter(game=game) if len((r.summary.get("discards") or [[]])[0]) == 2]
    assert len(verdicts) == len(rounds) > 0
    assert all(v.seat == 0 and v.loss >= 0 for v in verdicts)  # the computer is not judged
    (total,) = report["totals"]
    assert total["deals"] == len(verdicts)
    assert total["loss"] == pytest.approx(sum(v.loss for v in verdicts))
    assert total["best"] == sum(v.loss == 0 for v in verdicts)
    for v in verdicts:
        assert v.loss == pytest.approx(max(0.0, v.best_net - v.chosen_net))


def test_playing_the_experts_discards_loses_nothing(alice):
    game = computer_game(alice, level="easy", rules=SHORT)
    play_out(game, {0: alice}, random.Random(4), choose=expert_discards)
    game.refresh_from_db()
    verdicts = discard_verdicts(game)
    assert verdicts and all(v.loss == 0 and v.chosen == v.best for v in verdicts)


def test_the_analysis_matches_the_engine_for_each_deal(alice):
    game = finish_vs_computer(alice, seed=5, rules=SHORT)
    from games.engine.cards import parse_cards

    for v, rnd in zip(discard_verdicts(game), Round.objects.filter(game=game).order_by("game_no", "deal_no"),
                      strict=False):
        deal = rnd.summary
        a = analyse_discard(parse_cards(deal["hands"][0]), parse_cards(deal["discards"][0]), rnd.dealer == 0)
        assert v.loss == pytest.approx(a.loss)


def test_the_record_page_shows_the_analysis(client, alice):
    game = finish_vs_computer(alice, seed=3, rules=SHORT)
    analyse(game)  # the task the game's end enqueued
    client.force_login(alice)
    html = client.get(reverse("game_record", args=[game.pk])).content.decode()
    url = reverse("game_record_analysis", args=[game.pk, "discards"])
    assert "Discard analysis" in html and f'hx-get="{url}"' in html
    assert "points lost in expectation" in client.get(url, headers={"HX-Request": "true"}).content.decode()


def test_each_verdict_says_what_the_split_cost_in_winning_chances(alice):
    from games.engine.cards import parse_cards
    from games.engine.players.discard_chances import discard_chances

    game = finish_vs_computer(alice, seed=5, rules=SHORT)
    rounds = {(r.game_no, r.deal_no): r for r in Round.objects.filter(game=game)}
    verdicts = discard_verdicts(game)
    assert verdicts
    for v in verdicts:
        deal = rounds[(v.game_no, v.deal_no)].summary
        chances = discard_chances(parse_cards(deal["hands"][0]), v.dealer, *deal["scores_before"], target=61,
                                  pegging=True)
        chosen = next(c for c in chances if frozenset(c.option.laid_away) == frozenset(parse_cards(v.chosen)))
        assert v.best_win == pytest.approx(chances[0].win) and v.chosen_win == pytest.approx(chosen.win)
        assert v.win_loss == pytest.approx(chances[0].win - chosen.win)
        assert v.win_loss_text == ("best" if v.win_loss < 0.0005 else f"−{v.win_loss * 100:.1f}%")
    (total,) = discard_report(game)["totals"]
    assert total["win_loss"] == pytest.approx(sum(v.win_loss for v in verdicts))


def test_the_record_shows_the_chances_given_away(client, alice):
    game = finish_vs_computer(alice, seed=3, rules=SHORT)
    analyse(game)
    client.force_login(alice)
    html = client.get(reverse("game_record_analysis", args=[game.pk, "discards"])).content.decode()
    assert "To win" in html and "of winning chances given away" in html


def test_no_chances_where_the_table_has_no_target(alice):
    from games.engine.cards import parse_cards
    from games.history.analysis import _in_chances

    hand = parse_cards("5H 5C JD 6S KC 2D")
    assert _in_chances(hand, hand[:2], True, [0, 0], 0, 91) == {}
    assert _in_chances(hand, hand[:2], True, [0, 0, 0], 0, 121) == {}
