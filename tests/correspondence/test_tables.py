"""Tables of three and four at your own pace: a clock for each person, a claim on time only against
another side, and a computer in a seat that moves from its task, board open or not. Time is moved
through ``games.correspondence.clock.now``."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.correspondence.clock import starting_bank
from games.correspondence.services import game_claim_on_time, game_give_time
from games.engine.rules import HouseRules
from games.play import services
from games.play.forms import TableForm
from games.play.models import Game
from games.play.services import ServiceError
from tests.correspondence.support import START, clocks, move_once
from tests.play.factories import as_form, load, make_user, play_out, random_action

pytestmark = pytest.mark.django_db


def correspondence_table(users: list, days: int = 1) -> Game:
    """``users[0]`` opens a table for all of them at ``days`` a move; the others take their seats."""
    host, *guests = users
    table = services.game_create_table(
        user=host, rules=HouseRules(players=len(users)), days_per_move=days,
        seats=[{"kind": "invite", "user": guest} for guest in guests],
    )
    for guest in guests:
        table = services.game_accept(user=guest, game_id=table.pk)
    return table


@pytest.fixture
def four():
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


def test_every_player_at_the_table_has_a_clock_and_only_those_due_run(clock, four):
    game = correspondence_table(four, days=2)
    assert game.status == Game.Status.ACTIVE and game.days_per_move == 2
    assert sorted(clocks(game)) == [0, 1, 2, 3]
    users = dict(enumerate(four))
    play_out(game, users, random.Random(5), stop=lambda s: s.phase == "play")
    due = set(load(game).to_act)
    assert len(due) == 1
    for index, c in clocks(game).items():
        assert (c.deadline_at is not None) == (index in due)


def test_at_four_a_late_player_s_opponents_claim_and_their_side_loses(clock, four):
    game = correspondence_table(four)
    users = dict(enumerate(four))
    for seat in (0, 1, 2):  # all but dan cut; dan's clock runs
        move_once(game, users, seat=seat)
    clock.advance(days=3, minutes=1)
    # Dan's partner (seat 1) may neither claim against him nor give him time.
    for call in (game_claim_on_time, game_give_time):
        with pytest.raises(services.NotAvailable, match="Nobody on the other side"):
            call(user=four[1], game_id=game.pk)
    game_claim_on_time(user=four[2], game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat % 2 == 0
    assert game.result["ending"] == {"how": "time", "seat": 3, "clock": "correspondence", "by": 2}


def test_at_three_either_other_player_may_give_the_late_one_more_time(clock):
    three = [make_user(name) for name in ("ann", "ben", "cat")]
    game = correspondence_table(three, days=3)
    users = dict(enumerate(three))
    move_once(game, users, seat=0)
    move_once(game, users, seat=1)
    clock.advance(days=10)
    game_give_time(user=three[1], game_id=game.pk)
    assert clocks(game)[2].extended == 1
    with pytest.raises(services.NotAvailable):
        game_claim_on_time(user=three[0], game_id=game.pk)


def test_own_pace_tables_have_no_turn_timer(four):
    ann, ben, cat, _ = four
    people = [{"kind": "invite", "user": ben}, {"kind": "open"}]
    with pytest.raises(ServiceError, match="not a turn timer"):
        services.game_create_table(user=ann, rules=HouseRules(players=3), days_per_move=1, turn_timer=60,
                                   seats=people)
    with pytest.raises(ServiceError, match="days a move"):
        services.game_create_table(user=ann, rules=HouseRules(players=3), days_per_move=4, seats=people)
    assert not Game.objects.exists()


def test_the_lobby_s_table_form_opens_a_table_at_your_own_pace(clock, four):
    ann, ben, *_ = four
    client = Client()
    client.force_login(ann)
    form = {"table-players": "3", "table-seat_1": "invite", "table-seat_1_player": "ben",
            "table-seat_2": "open", "table-days_per_move": "3", "table-turn_timer": "0",
            "table-target": "121", "table-match_games": "1", "table-peg_out_zone": "0"}
    response = client.post(reverse("new_table"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Game.objects.get()
    assert table.players == 3 and table.days_per_move == 3 and table.status == Game.Status.WAITING
    # A computer may take a seat at that pace too.
    assert client.post(reverse("new_table"), {**form, "table-seat_2": "standard"}).status_code == 302
    with_computer = Game.objects.latest("pk")
    assert with_computer.days_per_move == 3
    assert with_computer.plan[2] == {"kind": "computer", "level": "standard"}


def test_a_computer_at_your_own_pace_moves_from_its_task_after_each_move(clock, monkeypatch):
    """Two people and the computer, moves posted as a page would and no board asking for the
    computer's: a move that leaves the computer to act sends for its task and makes none of its
    moves; the task (run here as the worker would) plays until a person is due again (or the game
    is over). The computer has no clock, and the person it hands the turn to hears of it."""
    from games.correspondence import tasks
    from games.play import signals

    told, sent_for = [], []
    monkeypatch.setattr(tasks, "enqueue_turn_notices", lambda game, user_ids: told.extend(user_ids))
    monkeypatch.setattr(signals.computer_due, "send", lambda sender, game: sent_for.append(game.version))
    ann, ben = make_user("ann"), make_user("ben")
    table = services.game_create_table(
        user=ann, rules=HouseRules(players=3), days_per_move=2,
        seats=[{"kind": "invite", "user": ben}, {"kind": "computer", "level": "standard"}])
    table = services.game_accept(user=ben, game_id=table.pk)
    assert sorted(clocks(table)) == [0, 1]
    users, rng = {0: ann, 1: ben}, random.Random(7)
    pages = {seat: Client() for seat in users}
    for seat, user in users.items():
        pages[seat].force_login(user)
    assert sent_for == [table.version]  # everyone cuts for deal at once, the computer too
    computer_moves = services.game_computer_turns(game_id=table.pk, version=sent_for.pop())
    for _ in range(600):
        table.refresh_from_db()
        if table.status != Game.Status.ACTIVE:
            break
        state = load(table)
        due = [s for s in state.to_act if s in users]
        assert due and not services.computer_to_act(table), f"the computer was left due in {state.phase}"
        seat = due[0]
        told.clear()
        moves_before = table.move_count
        response = pages[seat].post(reverse("act", args=[table.pk]),
                                    {**as_form(random_action(state, seat, rng)), "version": table.version})
        assert response.status_code == 302, response.content.decode()[:500]
        table.refresh_from_db()
        assert table.move_count == moves_before + 1  # the person's move alone
        assert sent_for == ([table.version] if services.computer_to_act(table) else [])
        after = {users[s].pk for s in load(table).to_act if s in users}
        # The other person, newly due, was told; the mover, at the board, never is.
        assert set(told) == after - {users[s].pk for s in due} - {users[seat].pk}
        if sent_for:  # the worker runs the task
            told.clear()
            version = sent_for.pop()
            made = services.game_computer_turns(game_id=table.pk, version=version)
            assert made > 0 and not sent_for  # the computer's own moves send for no other task
            computer_moves += made
            assert services.game_computer_turns(game_id=table.pk, version=version) == 0  # run twice
            table.refresh_from_db()
            now_due = {users[s].pk for s in load(table).to_act if s in users}
            # Whoever the computer hands the turn to hears of it, the person who moved before it too.
            assert set(told) <= now_due and now_due - after <= set(told)
    else:
        raise AssertionError("the game did not end")
    assert computer_moves > 20
    assert table.status == Game.Status.FINISHED


def test_the_table_form_says_what_is_wrong_with_a_pace_and_a_timer_together():
    form = TableForm({"table-players": "3", "table-seat_1": "open", "table-seat_2": "open",
                      "table-days_per_move": "1", "table-turn_timer": "60", "table-target": "121",
                      "table-match_games": "1", "table-peg_out_zone": "0"}, prefix="table")
    assert not form.is_valid()
    assert "not a turn timer" in str(form.errors["turn_timer"])


def test_the_clocks_start_when_the_last_seat_is_taken(clock, four):
    game = correspondence_table(four)
    first = START + timedelta(days=1, seconds=starting_bank(1))
    assert all(c.deadline_at == first for c in clocks(game).values())


def test_notices_at_a_table_name_the_table_and_the_late_player_and_spare_the_partner(clock, four):
    from io import StringIO

    from django.core import mail
    from django.core.management import call_command

    from games.correspondence.notices import turn_words

    for user in four:
        user.email = f"{user.username}@example.com"
        user.save(update_fields=["email"])
    game = correspondence_table(four)
    subject, body = turn_words(game, four[0])
    assert subject == "Your turn at your table with ben, cat and dan (Cribbage Hall)"
    assert "It is your turn at your table with ben, cat and dan (1 day a move)." in body
    users = dict(enumerate(four))
    for seat in (0, 1, 2):
        move_once(game, users, seat=seat)
    clock.advance(days=3, hours=2)  # dan is out of time
    mail.outbox.clear()
    call_command("correspondence_clock", stdout=StringIO())
    # ann and cat may claim; ben is dan's partner, and dan is the one who is late.
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.com", "cat@example.com"]
    for message in mail.outbox:
        assert message.subject == "dan ran out of time (Cribbage Hall)"
        assert "dan has run out of time at your table with" in message.body
        assert "claim the win on time, or give them more time" in message.body


# --- the same table again ---------------------------------------------------------------------------


def test_a_rematch_of_a_table_against_computers_is_the_same_table_again():
    from tests.history.helpers import finish_table

    alice = make_user("alice")
    easy = {"kind": "computer", "level": "easy"}
    three = finish_table(alice, [easy, {"kind": "computer", "level": "expert"}],
                         rules=HouseRules(players=3, target=61), seed=72)
    new = services.game_rematch(user=alice, game_id=three.pk)
    assert new.players == 3 and new.status == Game.Status.ACTIVE and new.target == 61
    assert [(s.index, s.user_id, s.computer_level) for s in new.seat_list()] == [
        (0, alice.pk, ""), (1, None, "easy"), (2, None, "expert")]


def test_a_rematch_of_a_table_of_people_waits_for_every_seat_and_keeps_the_places(clock, four):
    ann, ben, cat, dan = four
    old = correspondence_table(four, days=2)
    services.game_act(user=ann, game_id=old.pk, version=old.version, action={"type": "resign"})
    # Cat asks first: she sits first, and everyone keeps their place around her (ann stays opposite).
    new = services.game_rematch(user=cat, game_id=old.pk)
    assert new.status == Game.Status.WAITING and new.days_per_move == 2 and new.players == 4
    assert [spot.get("user") for spot in new.seat_plan] == [cat.pk, dan.pk, ann.pk, ben.pk]
    with pytest.raises(services.RematchWaiting):
        services.game_rematch(user=cat, game_id=old.pk)
    for user in (ann, dan):
        assert services.game_rematch(user=user, game_id=old.pk).pk == new.pk
    started = services.game_rematch(user=ben, game_id=old.pk)
    assert started.pk == new.pk and started.status == Game.Status.ACTIVE
    assert len(clocks(started)) == 4
    # Pressed again from the finished board, Rematch leads to the game in play.
    assert services.game_rematch(user=ann, game_id=old.pk).pk == new.pk
    assert Game.objects.filter(rematch_of=old).count() == 1


def test_the_finished_table_s_board_offers_the_others_their_seat(four):
    from tests.play.factories import logged_in

    ann, ben, cat, dan = four
    table = services.game_create_table(user=ann, rules=HouseRules(players=4),
                                       seats=[{"kind": "invite", "user": u} for u in (ben, cat, dan)])
    for guest in (ben, cat, dan):
        table = services.game_accept(user=guest, game_id=table.pk)
    services.game_act(user=dan, game_id=table.pk, version=table.version, action={"type": "resign"})
    asked = logged_in(ann).post(reverse("rematch", args=[table.pk]), follow=True).content.decode()
    assert "the rematch opens when every seat is" in asked
    assert "Rematch offered: it starts when every seat is taken." in asked
    bens = logged_in(ben).get(reverse("game", args=[table.pk])).content.decode()
    assert ">Accept rematch</button>" in bens


def test_the_your_turn_lists_say_who_sits_at_the_table(clock, four):
    from games.correspondence.lists import games_in_progress

    game = correspondence_table(four)
    mine, theirs = games_in_progress(four[0])
    assert [(r.game_id, r.opponent) for r in mine] == [(game.pk, "at a table with ben, cat and dan")]
    assert theirs == []
