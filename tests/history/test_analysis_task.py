"""A finished game's analyses are a task written in the transaction that ends the game, made by the
task worker and kept; running it twice keeps one analysis; games finished before are analysed by
``manage.py history_analyse`` (or again from the admin)."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from games.engine.rules import HouseRules
from games.history.models import GameAnalysis
from games.history.tasks import QUEUE, analysable, analyse_game
from games.play import services
from games.play.models import Game
from tests.history.helpers import finish_vs_computer
from tests.play.factories import act, play_out
from tests.queue.support import database_tasks, run_due, statuses

pytestmark = pytest.mark.django_db(transaction=True)
TASK = "games.history.tasks.analyse_game"
SHORT = HouseRules(target=61)


def enqueued() -> list[tuple[str, list]]:
    return list(DBTaskResult.objects.filter(task_path=TASK).values_list("queue_name", "args_kwargs__args"))


def test_a_game_s_end_enqueues_its_analyses_once_and_the_worker_keeps_them(alice):
    with database_tasks():
        game = services.game_create_vs_computer(user=alice, level="easy", rules=SHORT)
        with pytest.raises(RuntimeError), transaction.atomic():  # an end whose transaction rolls back
            act(game, alice, {"type": "resign"})
            raise RuntimeError("after the resignation, before its commit")
        assert enqueued() == []
        play_out(game, {0: alice}, random.Random(3))
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert enqueued() == [(QUEUE, [game.pk])]  # once, with the game's end
        assert not GameAnalysis.objects.exists()  # made by the worker, not by the last move
        assert run_due() == 1
        kept = GameAnalysis.objects.get(game=game)
        assert kept.discards["verdicts"] and kept.pegging["totals"][0]["seat"] == 0
        # A worker that died mid-run has the task run again: still one analysis, the same.
        analyse_game.using(queue_name=QUEUE).enqueue(game.pk)
        assert run_due() == 1
        again = GameAnalysis.objects.get(game=game)
        assert (again.discards, again.pegging) == (kept.discards, kept.pegging)
        assert statuses() == {"SUCCESSFUL": 2} and enqueued() == [(QUEUE, [game.pk])] * 2
    # Only games of two have an expert's analysis.
    assert not analysable(Game(players=3, status=Game.Status.FINISHED))
    assert not analysable(Game(players=2, status=Game.Status.ACTIVE))


def test_games_finished_without_an_analysis_are_analysed_by_the_backfill(alice, client):
    with database_tasks():
        game = finish_vs_computer(alice, seed=4, rules=SHORT)
        DBTaskResult.objects.all().delete()  # as for a game finished before analyses were kept
        out = StringIO()
        call_command("history_analyse", stdout=out)
        assert out.getvalue() == "1 game enqueued for the task worker.\n" and len(enqueued()) == 1
        assert run_due() == 1 and GameAnalysis.objects.filter(game=game).exists()
        call_command("history_analyse", stdout=out)  # nothing left without one
        assert out.getvalue().endswith("0 games enqueued for the task worker.\n") and len(enqueued()) == 1
        GameAnalysis.objects.all().delete()
        call_command("history_analyse", "--now", stdout=out)
        assert out.getvalue().endswith("1 game analysed.\n")
        assert GameAnalysis.objects.filter(game=game).exists()
        # From the admin, an analysis made again is a task too.
        client.force_login(get_user_model().objects.create_superuser("admin", password=None))
        selected = {"action": "make_again", "_selected_action": [game.pk]}
        answer = client.post("/admin/history/gameanalysis/", selected)
        assert answer.status_code == 302 and len(enqueued()) == 2
