"""The daily summary and the two commands a scheduler runs."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command

from games.correspondence import digest, services
from games.correspondence.models import NoticePreferences
from games.correspondence.services import game_give_time
from games.play.models import Game
from tests.correspondence.conftest import player
from tests.correspondence.support import correspondence_game, move_once

pytestmark = pytest.mark.django_db


def waiting_on(user, opponent, days: int) -> Game:
    game = correspondence_game(user, opponent, days=days)
    move_once(game, {0: user, 1: opponent}, seat=1)  # the opponent cut: waiting on ``user`` alone
    return game


def test_one_summary_a_player_listing_the_least_time_left_first(clock, players):
    alice, bob = players
    carol = player("carol")
    slow = waiting_on(alice, bob, 7)
    fast = waiting_on(alice, carol, 1)
    mail.outbox.clear()
    assert call_command("correspondence_digest", stdout=StringIO()) is None
    summaries = {m.to[0]: m for m in mail.outbox}
    assert set(summaries) == {"alice@example.com"}  # bob and carol wait on nothing
    message = summaries["alice@example.com"]
    assert message.subject == "2 games waiting on you (Cribbage Hall)"
    games = [int(g) for g in re.findall(r"/games/(\d+)/", message.body)]
    assert games == [fast.pk, slow.pk]
    assert "against carol: 1 day to move; then your bank of 2 days" in message.body
    assert "/unsubscribe/" in message.extra_headers["List-Unsubscribe"]


def test_a_second_run_the_same_day_sends_nothing_and_the_next_day_again(clock, players):
    alice, bob = players
    waiting_on(alice, bob, 3)
    mail.outbox.clear()
    assert digest.send_digests() == 1
    assert digest.send_digests() == 0
    clock.advance(days=1)
    assert digest.send_digests() == 1


def test_no_summary_for_a_player_who_said_no(clock, players):
    alice, bob = players
    waiting_on(alice, bob, 3)
    services.preferences_save(user=alice, turn_notices=NoticePreferences.Turn.DAILY, digest=False)
    mail.outbox.clear()
    assert digest.send_digests() == 0 and mail.outbox == []


def test_players_are_read_a_chunk_at_a_time(clock, players, monkeypatch):
    alice, bob = players
    for n in range(5):
        waiting_on(player(f"p{n}"), bob, 1)
    waiting_on(alice, bob, 1)
    sizes = []
    chunks = digest.chunks
    monkeypatch.setattr(digest, "chunks",
                        lambda day: (sizes.append(len(c)) or c for c in chunks(day, size=2)))
    mail.outbox.clear()
    assert digest.send_digests() == 6
    assert sizes == [2, 2, 2] and len({m.to[0] for m in mail.outbox}) == 6


def test_the_clock_command_ends_abandoned_games(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)
    clock.advance(days=7)
    out = StringIO()
    call_command("correspondence_clock", stdout=out)
    assert "games ended as abandoned: 1" in out.getvalue()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["ending"]["abandoned"]



def test_the_clock_command_tells_the_waiting_player_once_that_time_ran_out(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)  # waiting on bob
    clock.advance(days=3, hours=2)
    mail.outbox.clear()
    call_command("correspondence_clock", stdout=StringIO())
    call_command("correspondence_clock", stdout=StringIO())
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    message = mail.outbox[0]
    assert message.subject == "bob ran out of time (Cribbage Hall)"
    assert "claim the win on time, or give them more time" in message.body
    assert "abandoned in 2 days 22 hours" in message.body
    game_give_time(user=alice, game_id=game.pk)
    clock.advance(days=1, hours=1)
    call_command("correspondence_clock", stdout=StringIO())
    assert len(mail.outbox) == 2  # a new deadline, run out again
