"""A notice that could not be sent is logged as not sent, never as sent, and the log never holds
the email; without ``SITE_URL`` its links go to the address the site was served at."""

from __future__ import annotations

import logging
import random
import re

import pytest
from django.core import mail
from django.test import override_settings

from games.correspondence.notices import send_turn_notice
from games.play.models import Game
from tests.correspondence.support import correspondence_game, move_once
from tests.play.factories import as_form, load, logged_in, random_action
from tests.queue.support import database_tasks, run_due

NO_MAIL_SERVER = "cribsite.mail.NoMailServerBackend"


def test_a_notice_no_mail_server_took_is_logged_as_not_sent_without_the_email(clock, players, caplog) -> None:
    alice, bob = players
    game = correspondence_game(alice, bob)
    caplog.set_level(logging.INFO)
    with override_settings(EMAIL_BACKEND=NO_MAIL_SERVER):
        assert send_turn_notice(Game.objects.get(pk=game.pk), alice) == (False, False)  # nor tried again
    logged = [r.getMessage() for r in caplog.records]
    assert f"turn notice email for game={game.pk} user={alice.pk} not sent: no mail server took it" in logged
    assert "1 email not sent: no mail server is configured (set EMAIL_HOST)" in logged
    assert not [line for line in logged if "action=turn_notice" in line]  # nothing claims it went
    assert not [line for line in logged if "Hello alice" in line or f"/games/{game.pk}/" in line]


def test_a_send_that_raised_is_logged_as_not_sent(clock, players, caplog, monkeypatch) -> None:
    alice, bob = players
    game = correspondence_game(alice, bob)

    def refuse(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    caplog.set_level(logging.INFO)
    assert send_turn_notice(Game.objects.get(pk=game.pk), alice) == (False, True)  # tried again later
    failed = [r for r in caplog.records if r.getMessage().endswith("not sent")]
    expected = f"turn notice email for game={game.pk} user={alice.pk} not sent"
    assert [r.getMessage() for r in failed] == [expected]
    assert failed[0].exc_info is not None
    assert not [r for r in caplog.records if "action=turn_notice" in r.getMessage()]


# Committed for real: the move's request enqueues the notice; the worker, outside any request, sends it
# with the origin the task was given.
@pytest.mark.django_db(transaction=True)
def test_without_site_url_the_email_links_to_the_origin_the_move_came_from(clock, players) -> None:
    alice, bob = players
    with database_tasks():
        game = correspondence_game(alice, bob)
        move_once(game, {0: alice, 1: bob}, seat=0)  # bob cuts next, and alice then
        run_due()
        clock.advance(days=1)  # alice heard of the game today already: a notice a game a day
        mail.outbox.clear()
        game.refresh_from_db()
        action = as_form(random_action(load(game), 1, random.Random(1)))
        client = logged_in(bob, HTTP_HOST="localhost:8123")
        with override_settings(SITE_URL=""):
            answer = client.post(f"/games/{game.pk}/act/", {"version": game.version, **action})
            assert answer.status_code in (200, 302)
            assert mail.outbox == []  # enqueued with the move, not sent by it
            assert run_due() == 1
    (notice,) = [m for m in mail.outbox if m.to == [alice.email]]
    links = set(re.findall(r"https?://[^/\s>]+", notice.body + notice.extra_headers["List-Unsubscribe"]))
    assert links == {"http://localhost:8123"}


@pytest.mark.django_db(transaction=True)
def test_site_url_wins_over_the_origin_the_task_was_given(clock, players, settings) -> None:
    settings.SITE_URL = "https://cribbage.example"
    alice, bob = players
    with database_tasks():
        correspondence_game(alice, bob)
        run_due()
    (notice,) = [m for m in mail.outbox if m.to == [alice.email]]
    assert set(re.findall(r"https?://[^/\s>]+", notice.body)) == {"https://cribbage.example"}
