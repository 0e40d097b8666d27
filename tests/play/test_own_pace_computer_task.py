"""A table of four at your own pace with computers in two seats: the computer moves from a task the
move that leaves it to act writes with itself, run by the task worker (here in the test's process,
``run_due``), never in the request of the person who moved; a task run twice makes nothing twice.
Claims at such a table are only against the other side. Time is moved, never waited for."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.correspondence.services import game_claim_on_time, game_give_time
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from games.play.tasks import computer_turns
from tests.correspondence.support import clocks
from tests.play.factories import as_form, load, logged_in, make_user, play_out, random_action
from tests.queue.support import database_tasks, run_due

COMPUTER = "games.play.tasks.computer_turns"
NOTICE = "games.correspondence.tasks.turn_notice"
HTMX = {"HX-Request": "true"}


def queued(path: str) -> list[list]:
    """The arguments of the tasks ``path`` waiting for the worker."""
    rows = DBTaskResult.objects.filter(task_path=path, status="READY").order_by("enqueued_at")
    return [row.args_kwargs["args"] for row in rows]


def noticed() -> list[int]:
    """Whom the turn notices written so far are for."""
    return [row.args_kwargs["args"][2] for row in DBTaskResult.objects.filter(task_path=NOTICE)]


def table_form(**seats: str) -> dict:
    return {"table-players": "4", "table-days_per_move": "2", "table-turn_timer": "0", "table-target": "121",
            "table-match_games": "1", "table-peg_out_zone": "0",
            **{f"table-{name}": value for name, value in seats.items()}}


@pytest.mark.django_db(transaction=True)
def test_partners_at_four_with_two_computers_the_computer_moves_from_its_task(clock):
    ann, ben = make_user("ann"), make_user("ben")
    pages = {0: logged_in(ann, headers=HTMX), 2: logged_in(ben, headers=HTMX)}
    users = {0: ann, 2: ben}
    with database_tasks():
        # Ann opens the table from the lobby: a computer on each side, ben opposite as her partner.
        form = table_form(seat_1="easy", seat_2="invite", seat_2_player="ben", seat_3="easy")
        assert logged_in(ann).post(reverse("new_table"), form).status_code == 302
        table = Game.objects.get()
        assert table.status == Game.Status.WAITING and table.days_per_move == 2
        assert logged_in(ben).post(reverse("accept", args=[table.pk])).status_code == 302
        table.refresh_from_db()
        assert table.status == Game.Status.ACTIVE and sorted(clocks(table)) == [0, 2]
        # Everyone cuts for deal at once: the computers' cuts are the worker's to make.
        assert queued(COMPUTER) == [[table.pk, table.version]]
        assert load(table).to_act == (0, 1, 2, 3)
        run_due()
        table.refresh_from_db()
        assert load(table).to_act == (0, 2)
        rng, handed_back = random.Random(11), 0
        for _ in range(60):
            state = load(table)
            if state.phase == "show" or handed_back >= 2:
                break
            seat = next(s for s in state.to_act if s in users)
            seen, notices = table.version, len(noticed())
            answer = pages[seat].post(reverse("act", args=[table.pk]),
                                      {**as_form(random_action(state, seat, rng)), "version": seen})
            assert answer.status_code == 200, answer.content.decode()[:500]
            # The answer is the board of the person's move alone: no computer thought in the request.
            shown = re.search(r'id="board"[^>]* data-version="(\d+)"', answer.content.decode())[1]
            assert shown == str(seen + 1)
            table.refresh_from_db()
            assert table.version == seen + 1
            if not services.computer_to_act(table):
                assert queued(COMPUTER) == []
                continue
            assert queued(COMPUTER) == [[table.pk, seen + 1]]
            run_due()
            table.refresh_from_db()
            assert table.version > seen + 1 and not services.computer_to_act(table)
            assert queued(COMPUTER) == []
            # Run again (a worker that died after the moves): nothing more is made.
            assert computer_turns.call(table.pk, seen + 1) == "0 made"
            assert Game.objects.get(pk=table.pk).version == table.version
            after = load(table)
            if after.phase == "play" and after.to_act != state.to_act:
                # The computer handed the turn to a person: their notice was written with its move.
                handed_back += 1
                due = users[after.to_act[0]]
                assert due.pk in noticed()[notices:]
        else:
            raise AssertionError("no computer handed the turn back")
        assert handed_back == 2


@pytest.mark.django_db
def test_opposed_at_four_with_computers_a_claim_and_more_time_come_only_from_the_other_side(clock):
    ann, ben = make_user("ann"), make_user("ben")
    computer = {"kind": "computer", "level": "easy"}
    # Ann and the computer opposite her against ben (on her left) and the computer on her right.
    table = services.game_create_table(user=ann, rules=HouseRules(players=4), days_per_move=1,
                                       seats=[{"kind": "invite", "user": ben}, computer, computer])
    table = services.game_accept(user=ben, game_id=table.pk)
    play_out(table, {0: ann, 1: ben}, random.Random(4), stop=lambda s: s.phase == "play" and s.to_act == (1,))
    clock.advance(days=3, minutes=1)  # ben's day and his bank are gone
    for call in (game_claim_on_time, game_give_time):
        with pytest.raises(services.NotAvailable, match="Nobody on the other side"):
            call(user=ben, game_id=table.pk)  # his own lateness is not his to rule on
    game_give_time(user=ann, game_id=table.pk)
    assert clocks(table)[1].extended == 1
    clock.advance(days=1, minutes=1)
    game_claim_on_time(user=ann, game_id=table.pk)
    table.refresh_from_db()
    assert table.status == Game.Status.FINISHED and table.winner_seat % 2 == 0
    assert table.result["ending"] == {"how": "time", "seat": 1, "clock": "correspondence", "by": 0}


@pytest.mark.django_db
def test_a_game_left_waiting_on_a_computer_is_sent_for_again(clock, monkeypatch):
    """More time given bumps the version a task was sent for; the clocks' job sends for it again."""
    from games.correspondence.jobs import keep_clocks
    from games.play import signals

    sent_for = []
    monkeypatch.setattr(signals.computer_due, "send", lambda sender, game: sent_for.append(game.version))
    ann = make_user("ann")
    computer = {"kind": "computer", "level": "easy"}
    table = services.game_create_table(user=ann, rules=HouseRules(players=3), days_per_move=1,
                                       seats=[computer, computer])
    assert sent_for == [table.version]
    Game.objects.filter(pk=table.pk).update(version=table.version + 1)  # the task's version is stale
    assert services.game_computer_turns(game_id=table.pk, version=sent_for.pop()) == 0
    assert "computers sent for again: 0" in keep_clocks(clock.at)  # not idle long enough yet
    Game.objects.filter(pk=table.pk).update(updated_at=table.updated_at - timedelta(minutes=3))
    assert "computers sent for again: 1" in keep_clocks(clock.at)
    assert services.game_computer_turns(game_id=table.pk, version=sent_for.pop()) > 0
    table.refresh_from_db()
    assert not services.computer_to_act(table) and load(table).to_act == (0,)
