"""The mail server away: the move is answered as ever (nothing in it waits on mail), each notice
is tried again later and later, and goes once the server is back; a server that never returns is
given up on after a bounded number of tries. A real SMTP server (aiosmtpd) on 127.0.0.1 comes and
goes on one port; the back-off's waits are passed by moving the tasks' times, not waited for."""

from __future__ import annotations

import random

import pytest
from aiosmtpd.controller import Controller
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.queue import retry
from tests.correspondence.support import correspondence_game
from tests.ops.support import closed_port
from tests.play.factories import as_form, load, logged_in, random_action
from tests.queue.conftest import player
from tests.queue.support import database_tasks, let_time_pass, run_due

pytestmark = pytest.mark.django_db(transaction=True)


class Inbox:
    def __init__(self) -> None:
        self.envelopes = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.envelopes.append(envelope)
        return "250 Message accepted"


@pytest.fixture
def smtp_port(settings):
    port = closed_port()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = False, 5
    return port


def waiting() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(status="READY"))


def test_notices_go_once_the_mail_server_is_back(smtp_port):
    alice, bob = player("alice"), player("bob")
    with database_tasks():
        game = correspondence_game(alice, bob)
        users = {0: alice, 1: bob}
        for _ in range(8):  # moves through the site until one makes it the other player's turn
            game.refresh_from_db()
            state = load(game)
            seat = state.to_act[0]
            move = {"version": game.version, **as_form(random_action(state, seat, random.Random(1)))}
            answer = logged_in(users[seat]).post(reverse("act", args=[game.pk]), move,
                                                 headers={"HX-Request": "true"})
            assert answer.status_code == 200  # the mail server is away: each move is answered all the same
            if DBTaskResult.objects.count() > 1:
                break
        run_due()  # the sends refused: each tried again after the first back-off (a moot one is not)
        again = waiting()
        assert again and {t.args_kwargs["kwargs"]["attempt"] for t in again} == {1}
        expected = sorted(users[1 - seat].email for _ in again)
        assert run_due() == 0  # not before its time
        let_time_pass()
        run_due()
        assert {t.args_kwargs["kwargs"]["attempt"] for t in waiting()} == {2}
        inbox = Inbox()
        server = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
        server.start()
        try:
            let_time_pass()
            run_due()
            let_time_pass()
            assert run_due() == 0 and waiting() == []
        finally:
            server.stop()
    assert sorted(r for envelope in inbox.envelopes for r in envelope.rcpt_tos) == expected  # each once


def test_a_mail_server_that_never_returns_is_given_up_on_after_a_bounded_number_of_tries(smtp_port):
    alice, bob = player("alice"), player("bob")
    with database_tasks():
        correspondence_game(alice, bob)
        for _ in range(retry.ATTEMPTS + 2):
            let_time_pass()
            run_due()
        assert waiting() == []
    returned = DBTaskResult.objects.order_by("enqueued_at").values_list("return_value", flat=True)
    assert list(returned) == ["retry"] * (retry.ATTEMPTS - 1) + ["gave up"]
