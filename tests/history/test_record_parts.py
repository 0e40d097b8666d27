"""The record's first answer is its summary and charts with a line per deal; each deal, the fair-deal
check and the analyses are parts fetched as they are opened, each as private as the record, and none
works out an analysis."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.urls import reverse

from games.engine.deck import deal_seed
from games.engine.rules import HouseRules
from games.history.tasks import analyse
from games.play.models import Round
from tests.history.helpers import finish_vs_computer, nine_deals, record_parts
from tests.play.factories import computer_game

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
FIRST_ANSWER_BYTES = 60 * 1024


def deal_url(game, game_no: int, deal_no: int) -> str:
    return reverse("game_record_deal", args=[game.pk, game_no, deal_no])


def test_a_nine_deal_record_first_answers_its_summary_and_charts_in_under_60_kb(alice, bob, client):
    game = nine_deals(alice, bob)
    client.force_login(alice)
    html = client.get(reverse("game_record", args=[game.pk])).content.decode()
    print(f"first answer of a nine-deal record: {len(html.encode()) / 1024:.1f} KB")
    assert len(html.encode()) < FIRST_ANSWER_BYTES
    assert "Scores through the game" in html and "Chances to win" in html
    assert 'data-testid="final-score"' in html
    # A line per deal, none of them drawn: no hand, no play, no show, no seed until asked for.
    assert len(re.findall(r'<details class="panel deal"', html)) == 9
    assert "deal-table" not in html and "The play" not in html and "counted-hand" not in html
    secret = bytes.fromhex(game.secret)
    assert deal_seed(secret, 0, 0).hex() not in html and 'id="verify-data"' not in html
    assert "analysis-totals" not in html  # nor the analyses
    parts = record_parts(client, game)
    assert sorted(parts) == sorted([
        *(deal_url(game, 0, n) for n in range(9)),
        reverse("game_record_verify", args=[game.pk]),
        reverse("game_record_analysis", args=[game.pk, "discards"]),
        reverse("game_record_analysis", args=[game.pk, "pegging"]),
    ])
    # Each part holds what the whole page used to.
    for rnd in Round.objects.filter(game=game):
        part = client.get(deal_url(game, rnd.game_no, rnd.deal_no), headers=HTMX).content.decode()
        assert "deal-table" in part and "The play" in part and rnd.commitment in part
        assert ("The show" in part) == rnd.summary["complete"]
        assert "<html" not in part  # a fragment for htmx
    check = client.get(reverse("game_record_verify", args=[game.pk]), headers=HTMX).content.decode()
    assert check.count('data-verify-status="pending"') == 9 and deal_seed(secret, 0, 8).hex() in check


def test_parts_refuse_strangers_games_in_play_and_deals_never_dealt_and_work_without_htmx(alice, bob, client):
    game = finish_vs_computer(alice, seed=3, rules=HouseRules(target=61))
    deals = Round.objects.filter(game=game).count()
    active = computer_game(alice, level="easy")
    urls = [deal_url(game, 0, 0), reverse("game_record_verify", args=[game.pk]),
            reverse("game_record_analysis", args=[game.pk, "pegging"])]
    for url in urls:  # against the computer: the record is its player's alone
        assert client.get(url, headers=HTMX).status_code == 404
        client.force_login(bob)
        assert client.get(url, headers=HTMX).status_code == 404
        client.logout()
    client.force_login(alice)
    assert all(client.get(url, headers=HTMX).status_code == 200 for url in urls)
    # Without htmx (no JavaScript) a part is a page of its own.
    page = client.get(deal_url(game, 0, 0)).content.decode()
    assert "<html" in page and "Back to the game record" in page and "deal-table" in page
    page = client.get(reverse("game_record_verify", args=[game.pk])).content.decode()
    assert "<html" in page and 'id="verify-data"' in page and "/static/js/verify.js" in page
    for url in (deal_url(game, 0, deals), deal_url(game, 1, 0), f"/games/{game.pk}/record/deals/0-{10**30}/",
                deal_url(active, 0, 0), reverse("game_record_verify", args=[active.pk]),
                reverse("game_record_analysis", args=[active.pk, "pegging"]),
                reverse("game_record_analysis", args=[game.pk, "chances"])):
        assert client.get(url, headers=HTMX).status_code == 404, url


def test_the_record_and_its_parts_work_out_no_analysis(alice, bob, client):
    game = finish_vs_computer(alice, seed=3, rules=HouseRules(target=61))
    client.force_login(alice)
    refuse = mock.Mock(side_effect=AssertionError("an analysis worked out in a request"))
    with mock.patch("games.history.analysis.discard_verdicts", refuse), \
            mock.patch("games.history.play_analysis.play_verdicts", refuse):
        record = client.get(reverse("game_record", args=[game.pk])).content.decode()
        assert 'id="discard-analysis"' in record and 'id="play-analysis"' in record
        for url in record_parts(client, game):
            assert client.get(url, headers=HTMX).status_code == 200
        # Not made yet: the part says so and asks again by itself.
        pending = client.get(reverse("game_record_analysis", args=[game.pk, "pegging"]), headers=HTMX)
        html = pending.content.decode()
        assert "being prepared" in html and 'hx-trigger="load delay:3s"' in html
        assert 'hx-swap="outerHTML"' in html
    assert refuse.call_count == 0
    analyse(game)  # the task, once the game has ended
    with mock.patch("games.history.analysis.discard_verdicts", refuse), \
            mock.patch("games.history.play_analysis.play_verdicts", refuse):
        ready = client.get(reverse("game_record_analysis", args=[game.pk, "pegging"]), headers=HTMX)
        assert "analysis-totals" in ready.content.decode() and "hx-trigger" not in ready.content.decode()
