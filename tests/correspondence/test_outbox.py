"""Turn notices leave from the outbox's thread after the move's answer, as a site runs them
(``SENDS_IN_BACKGROUND``): a mail server that holds a notice never holds the mover's answer."""

from __future__ import annotations

import random
import threading

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.urls import reverse

from games.correspondence import services
from games.correspondence.models import NoticePreferences
from games.infra import outbox
from tests.play.corr_support import corr_game
from tests.play.factories import as_form, load, logged_in, random_action

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


class HeldMailServer(EmailBackend):
    """Django's test outbox behind a mail server that answers only when the test lets it."""

    reached = threading.Event()
    release = threading.Event()

    def send_messages(self, messages):
        HeldMailServer.reached.set()
        assert HeldMailServer.release.wait(10), "the test never let the mail server answer"
        return super().send_messages(messages)


@pytest.fixture
def held_mail(settings):
    settings.SENDS_IN_BACKGROUND = True
    HeldMailServer.reached.clear()
    HeldMailServer.release.set()  # open until the test holds it
    yield
    HeldMailServer.release.set()
    assert outbox.wait_until_sent(10)


def test_a_move_is_answered_while_the_mail_server_holds_its_notice(clock, players, held_mail, settings):
    alice, bob = players
    for user in players:
        services.preferences_save(user=user, turn_notices=NoticePreferences.Turn.EVERY, digest=True)
    game = corr_game(alice, bob)
    assert outbox.wait_until_sent(10)
    settings.EMAIL_BACKEND = "tests.correspondence.test_outbox.HeldMailServer"
    HeldMailServer.release.clear()
    clients, users = {0: logged_in(alice), 1: logged_in(bob)}, {0: alice, 1: bob}
    mail.outbox.clear()
    for _ in range(20):  # moves until one makes it the other player's turn
        game.refresh_from_db()
        state = load(game)
        seat = state.to_act[0]
        form = as_form(random_action(state, seat, random.Random(1)))
        answer = clients[seat].post(reverse("act", args=[game.pk]), {"version": game.version, **form},
                                    headers=HTMX)
        assert answer.status_code == 200
        if HeldMailServer.reached.wait(0.5):
            break
    assert HeldMailServer.reached.is_set(), "no move made it the other player's turn"
    assert mail.outbox == []  # answered, and the notice still waits on the mail server
    HeldMailServer.release.set()
    assert outbox.wait_until_sent(10)
    assert [m.subject for m in mail.outbox] == [f"Your turn against {users[seat].username} (Cribbage Hall)"]
