"""Turn notices by email: sent when a move makes it a player's turn and they are not at the table,
at most once a game a day unless they asked for every move, each with a link to the game and a
one-click unsubscribe. Emails are read from Django's outbox; time is moved, not waited for."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.correspondence import notices, services, tokens
from games.correspondence.models import NoticePreferences, TurnNotice
from games.play.models import Connection
from tests.correspondence.support import correspondence_game, move_once
from tests.play.factories import load, logged_in
from tests.queue.support import database_tasks, run_due

pytestmark = pytest.mark.django_db


def to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def link(message, pattern: str) -> str:
    found = re.search(rf"https?://\S*{pattern}\S*", message.body)
    assert found, message.body
    return found.group(0)


def test_the_game_starting_tells_the_player_who_posted_it(clock, players, on_commit):
    alice, bob = players
    game = on_commit(correspondence_game, alice, bob)
    assert len(to(alice)) == 1 and to(bob) == []  # bob accepted it: he is at the board
    message = to(alice)[0]
    assert message.subject == "Your turn against bob (Cribbage Hall)"
    assert f"/games/{game.pk}/" in message.body
    assert "1 day a move" in message.body
    assert "Your clock: 1 day to move; then your bank of 2 days." in message.body


def test_a_notice_at_most_once_a_game_a_day(clock, players, on_commit):
    alice, bob = players
    game = on_commit(correspondence_game, alice, bob)
    users = {0: alice, 1: bob}
    mail.outbox.clear()
    on_commit(move_once, game, users, 0)
    on_commit(move_once, game, users, 1)  # the cut done: the deal comes to both, again today
    assert load(game).phase == "discard"
    assert mail.outbox == []  # alice had hers today; bob made the move that dealt
    clock.advance(days=1)
    for _ in range(12):  # a dozen moves the next day, the turn passing back and forth in the play
        on_commit(move_once, game, users)
    assert len(to(alice)) == 1 and len(to(bob)) == 1
    assert TurnNotice.objects.filter(game=game).count() == 3


def test_a_player_who_asks_for_every_move_gets_every_one(clock, players, on_commit):
    alice, bob = players
    services.preferences_save(user=bob, turn_notices=NoticePreferences.Turn.EVERY, digest=True)
    game = on_commit(correspondence_game, alice, bob)
    users = {0: alice, 1: bob}
    before = len(to(bob))
    on_commit(move_once, game, users, 1)
    on_commit(move_once, game, users, 0)  # the deal: bob's turn again
    assert len(to(bob)) == before + 1


def test_no_notice_for_a_player_at_the_table_or_who_said_never(clock, players, on_commit):
    alice, bob = players
    services.preferences_save(user=alice, turn_notices=NoticePreferences.Turn.OFF, digest=True)
    game = correspondence_game(alice, bob)
    Connection.objects.create(game=game, user=bob, channel_name="bob-here", last_seen=timezone.now())
    assert not notices.send_turn_notice(game, bob).went
    assert not notices.send_turn_notice(game, alice).went
    assert mail.outbox == []


def test_a_link_opens_the_game_or_the_log_in_page(clock, players, on_commit):
    alice, bob = players
    game = on_commit(correspondence_game, alice, bob)
    path = link(to(alice)[0], f"/games/{game.pk}/").split("localhost:8000", 1)[1]
    assert logged_in(alice).get(path).status_code == 200
    answer = Client().get(path)
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert f"next=/games/{game.pk}/" in answer["Location"]


def test_every_email_unsubscribes_in_one_click(clock, players, on_commit):
    alice, bob = players
    game = on_commit(correspondence_game, alice, bob)
    message = to(alice)[0]
    stop = link(message, "/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe"] == f"<{stop}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    answer = Client().get(stop.split("localhost:8000", 1)[1])
    assert answer.status_code == 200 and b"no more emails when it is your turn" in answer.content
    assert services.preferences_of(alice.pk).turn_notices == NoticePreferences.Turn.OFF
    clock.advance(days=1)
    assert not notices.send_turn_notice(game, alice).went


def test_a_mail_program_posts_the_unsubscribe_without_a_session(players):
    alice, _ = players
    client = Client(enforce_csrf_checks=True)
    answer = client.post(f"/unsubscribe/{tokens.make(alice.pk, 'digest')}/",
                         {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert services.preferences_of(alice.pk).digest is False


def test_a_forged_unsubscribe_is_refused_and_changes_nothing(players):
    alice, _ = players
    forged = tokens.make(alice.pk, "turn")[:-2] + "xx"
    assert Client().get(f"/unsubscribe/{forged}/").status_code == 400
    assert Client().get("/unsubscribe/nonsense/").status_code == 400
    assert not NoticePreferences.objects.exists()


@pytest.mark.django_db(transaction=True)  # the worker runs its tasks in transactions of its own
def test_a_mail_server_down_does_not_fail_the_move(clock, players, monkeypatch):
    alice, bob = players

    def refuse(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    with database_tasks():
        game = correspondence_game(alice, bob)
        assert game.status == "active"
        assert run_due() == 1
    # The notice waits to be tried again, a back-off later.
    (retry,) = DBTaskResult.objects.filter(status="READY")
    assert retry.args_kwargs["kwargs"] == {"attempt": 1} and retry.run_after > timezone.now()


def test_the_notice_says_the_time_left(clock, players, on_commit):
    alice, bob = players
    game = on_commit(correspondence_game, alice, bob, 3)
    clock.advance(days=2)
    mail.outbox.clear()
    clock.advance(days=1)
    on_commit(move_once, game, {0: alice, 1: bob}, 0)
    on_commit(move_once, game, {0: alice, 1: bob}, 1)
    bodies = " ".join(m.body for m in mail.outbox)
    assert "Your clock: 3 days to move; then your bank of 6 days." in bodies


def test_the_turn_notice_reaches_the_player_s_browsers_too(clock, players, on_commit):
    """Beside the email, each browser the player turned notifications on in gets the notice, through
    a push service standing in on 127.0.0.1; a player with no email still gets it there."""
    import json

    import http_ece

    from games.webpush.models import PushSubscription
    from tests.webpush.push_service import Browser, push_service

    alice, bob = players
    alice.email = ""
    alice.save(update_fields=["email"])
    browser = Browser()
    with push_service() as service:
        PushSubscription.objects.create(user=alice, endpoint=f"{service.url}/push/alice",
                                        p256dh=browser.p256dh, auth=browser.auth)
        game = on_commit(correspondence_game, alice, bob)
    [request] = service.received
    notice = json.loads(http_ece.decrypt(request.body, private_key=browser.private_key,
                                         auth_secret=browser.auth_secret, version="aes128gcm"))
    url = f"/games/{game.pk}/"
    assert notice == {"title": "Your turn against bob", "body": "It is your move.", "url": url}
    assert to(alice) == []
    assert TurnNotice.objects.filter(game=game, user=alice).count() == 1
