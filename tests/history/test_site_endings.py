"""A game the site ended (a forfeit on time, a claimed win) and the site's own moves on a timeout,
as the record, the list of games, the replay and the downloads tell them; and the text download's
result line at a table of three, the same as the record's."""

from __future__ import annotations

import html
import json
import random

import pytest
from django.core.cache import cache

from games.engine.rules import HouseRules
from games.history.analysis import discard_report
from games.history.replay import replay_steps
from games.history.tasks import analyse
from games.play import services
from games.play.models import Game, Move
from games.play.narration import Seating, result_line
from tests.history.helpers import finish_table, whole_record
from tests.play.factories import (
    act,
    away_for,
    claimed_win,
    forfeit_on_time,
    load,
    logged_in,
    play_out,
    timed_game,
)

pytestmark = pytest.mark.django_db
EASY = {"kind": "computer", "level": "easy"}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


def _pages(game, user) -> dict[str, str]:
    c = logged_in(user)
    get = lambda url: html.unescape(c.get(url).content.decode())  # noqa: E731
    moves = Move.objects.filter(game=game).count()
    return {
        "record": html.unescape(whole_record(c, game)),
        "text": get(f"/games/{game.pk}/export.txt"),
        "list": get(f"/players/{user.username}/games/"),
        "replay": get(f"/games/{game.pk}/replay/?step={moves}"),
    }


def test_a_forfeit_on_time_is_no_resignation_in_the_history(alice, bob):
    game = forfeit_on_time(alice, bob)
    pages = _pages(game, bob)
    assert "alice</strong> won on time (3 timeouts)" in pages["record"]
    assert "alice won on time (3 timeouts)" in pages["text"]
    assert "Lost <span class=\"muted\">(on time)</span>" in pages["list"]
    assert "bob loses on time" in pages["replay"]
    assert "bob ran out of time (timeout 3 of 3)" in pages["replay"]
    for page in pages.values():
        assert "resignation" not in page and "bob resigns" not in page
    assert len(list(replay_steps(game))) == Move.objects.filter(game=game).count()  # the log still replays


def test_a_claimed_win_is_no_resignation_in_the_history(alice, bob, settings):
    settings.ABSENCE_CLAIM_SECONDS = 60
    game, absent, claimer = claimed_win(alice, bob)
    pages = _pages(game, claimer)
    name = claimer.username
    assert f"{name}</strong> won by claim (opponent absent)" in pages["record"]
    assert f"{name} won by claim (opponent absent)" in pages["text"]
    assert "Won <span class=\"muted\">(claim: opponent absent)</span>" in pages["list"]
    assert f"{absent.username} loses by claim (away from the table)" in pages["replay"]
    for page in pages.values():
        assert "resignation" not in page and f"{absent.username} resigns" not in page


def test_the_sites_lay_aways_on_a_timeout_are_logged_and_not_held_against_the_player(alice, bob):
    game = timed_game(alice, bob)
    act(game, alice, {"type": "cut_for_deal", "position": 3})
    act(game, bob, {"type": "cut_for_deal", "position": 40})
    assert load(game).phase == "discard"
    away_for(game, 31)
    services.game_timeout(user=alice, game_id=game.pk)  # both lay away at once: the site did both
    Game.objects.filter(pk=game.pk).update(turn_timer=0)
    play_out(game, {0: alice, 1: bob}, random.Random(2))
    game.refresh_from_db()
    report = discard_report(game)
    first = [v for v in report["verdicts"] if (v.game_no, v.deal_no) == (0, 0)]
    assert len(first) == 2 and all(v.by_site for v in first)
    assert not any(v.by_site for v in report["verdicts"] if (v.game_no, v.deal_no) != (0, 0))
    for total in report["totals"]:
        mine = [v for v in report["verdicts"] if v.seat == total["seat"]]
        assert total["by_site"] == 1 and total["deals"] == len(mine) - 1
        assert total["loss"] == pytest.approx(sum(v.loss for v in mine if not v.by_site))
    analyse(game)
    pages = _pages(game, alice)
    line = "alice ran out of time: the site laid away for alice (timeout 1 of 3)"
    assert line in pages["record"] and line in pages["text"]
    assert "(the site, on a timeout)" in pages["record"]


def test_the_text_download_writes_a_table_of_three_as_the_record_does(alice):
    game = finish_table(alice, [EASY, EASY], rules=HouseRules(players=3, target=61), seed=3)
    names = game.seat_names()
    text = logged_in(alice).get(f"/games/{game.pk}/export.txt").content.decode()
    for r in game.result["games"]:
        said = result_line(Seating(tuple(names)), r["winner"], r["scores"], r["reason"], skunks=r["skunks"],
                           past=True)
        assert str(said) in text
    players = json.loads(logged_in(alice).get(f"/games/{game.pk}/export.json").content)["players"]
    assert [p["name"] for p in players] == names == ["alice", "Computer 1 (easy)", "Computer 2 (easy)"]
