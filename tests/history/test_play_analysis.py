"""After-game analysis of the play: each card a person laid against the expert's search."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from games.engine.rules import HouseRules
from games.history.play_analysis import play_report, play_verdicts
from games.history.tasks import analyse
from tests.history.helpers import finish_vs_computer
from tests.play.factories import computer_game

pytestmark = pytest.mark.django_db


def test_every_choice_a_person_made_is_judged_and_costs_nothing_or_more(alice):
    game = finish_vs_computer(alice, seed=3)
    start = time.perf_counter()
    report = play_report(game)
    took = time.perf_counter() - start
    verdicts = report["verdicts"]
    assert verdicts and all(v.seat == 0 for v in verdicts)  # the computer is not judged
    for v in verdicts:
        assert v.points_loss is None or v.points_loss >= 0
        assert v.win_loss is None or 0 <= v.win_loss <= 1
    (total,) = report["totals"]
    assert total["cards"] == len(verdicts)
    assert total["best"] == sum(v.is_best for v in verdicts)
    print(f"{len(verdicts)} cards judged in {took:.2f} s")


def test_a_random_player_gives_points_away_and_the_best_card_costs_nothing(alice):
    game = finish_vs_computer(alice, seed=5, rules=HouseRules(target=61))
    verdicts = play_verdicts(game)
    assert any(v.points_loss and v.points_loss > 0.5 for v in verdicts)
    for v in verdicts:
        if v.is_best:
            assert not v.points_loss or v.points_loss < 1e-9
            assert not v.win_loss
        if v.win_loss is None and v.points_loss is None:
            assert v.points_text == v.win_loss_text == ""  # unknown shows as nothing


def test_the_fragment_is_as_private_as_the_record(client, alice, bob):
    game = finish_vs_computer(alice, seed=3, rules=HouseRules(target=61))
    analyse(game)
    url = reverse("game_record_analysis", args=[game.pk, "pegging"])
    client.force_login(bob)
    assert client.get(url).status_code == 404
    active = computer_game(alice, level="easy")
    client.force_login(alice)
    assert "Pegging analysis" in client.get(url).content.decode()
    assert client.get(reverse("game_record_analysis", args=[active.pk, "pegging"])).status_code == 404
    assert client.get(reverse("game_record_analysis", args=[game.pk, "chances"])).status_code == 404


def test_a_card_the_site_laid_on_a_timeout_is_not_judged(alice):
    from games.play.models import Move

    game = finish_vs_computer(alice, seed=3, rules=HouseRules(target=61))
    judged = play_verdicts(game)
    moves = Move.objects.filter(game=game, seat=0)
    plays = [m for m in moves if m.action.get("type") == "play"]
    # Mark every play of the person's as the site's: what the timeout path records for a card it lays.
    Move.objects.filter(pk__in=[m.pk for m in plays]).update(by_timeout=True)
    assert judged and play_verdicts(game) == []
