"""At your own pace a player's clock is one sentence, worded in one place and read the same on the
board, in the "Your turn" list and in the turn email: the days left for this move, then the bank."""

from __future__ import annotations

from datetime import timedelta

from django.core import mail

from games.correspondence.clock import clock_words
from games.correspondence.services import vacation_start
from tests.correspondence.support import START
from tests.correspondence.test_your_turn import clock_text, waiting_games
from tests.play.factories import logged_in

DAY, HOUR = timedelta(days=1), timedelta(hours=1)


def test_the_days_of_the_move_come_first_then_the_bank() -> None:
    assert clock_words(3 * DAY - HOUR, 2 * DAY) == "23 hours to move; then your bank of 2 days"
    assert clock_words(5 * DAY, 2 * DAY) == "3 days to move; then your bank of 2 days"


def test_without_a_bank() -> None:
    assert clock_words(DAY + 5 * HOUR, timedelta(0)) == "1 day 5 hours to move; no bank left"


def test_under_an_hour_counts_minutes() -> None:
    in_a_bank = clock_words(2 * DAY + timedelta(minutes=40), 2 * DAY)
    assert in_a_bank == "40 minutes to move; then your bank of 2 days"
    assert clock_words(timedelta(minutes=40), timedelta(0)) == "40 minutes to move; no bank left"


def test_once_the_days_are_gone_the_time_comes_from_the_bank() -> None:
    assert clock_words(DAY + 5 * HOUR, 2 * DAY) == "1 day 5 hours to move, all from your bank"
    assert clock_words(-HOUR, 2 * DAY) == "out of time"


def test_the_other_players_turn_and_a_clock_not_running() -> None:
    assert clock_words(3 * DAY, 2 * DAY, yours=False) == "1 day to move; then their bank of 2 days"
    assert clock_words(None, 2 * DAY) == "waiting, with your bank of 2 days"
    assert clock_words(None, timedelta(0), yours=False) == "waiting, with no bank left"


def test_on_vacation_the_clock_stands_still_until_it_ends() -> None:
    # Five days of vacation pushed the deadline on by five days: the move's day and the bank follow it.
    until = START + 5 * DAY
    assert clock_words(8 * DAY, 2 * DAY, vacation_until=until, at=START) == (
        "on vacation until 07 Mar, 09:00 UTC, the clock stands still; then 1 day to move; "
        "then your bank of 2 days")
    assert clock_words(None, 2 * DAY, vacation_until=until, at=START) == (
        "on vacation until 07 Mar, 09:00 UTC, the clock stands still; then waiting, with your bank of 2 days")
    assert clock_words(3 * DAY, 2 * DAY, vacation_until=START - HOUR, at=START) == (
        "1 day to move; then your bank of 2 days")  # a vacation already over says nothing


def test_the_board_the_list_and_the_email_say_the_same_sentence(clock, players, on_commit) -> None:
    alice, _ = players
    mail.outbox.clear()
    game = on_commit(waiting_games, alice, 1)[0]
    clock.advance(hours=1)
    expected = "23 hours to move; then your bank of 2 days"
    assert f"You: {expected}" in clock_text(logged_in(alice).get(f"/games/{game.pk}/").content.decode())
    listed = logged_in(alice).get("/your-turn/").content.decode()
    assert expected in listed.split('data-testid="waiting-on-me"')[1].split("</ol>")[0]
    assert "1 day a move" in listed  # the pace of the game, beside it
    (notice,) = [m for m in mail.outbox if m.to == [alice.email]]
    assert "Your clock: 1 day to move; then your bank of 2 days." in notice.body  # sent an hour earlier


def test_the_list_says_the_opponents_clock_in_their_words(clock, players) -> None:
    alice, bob = players
    vacation_start(user=bob, days=2)
    game = waiting_games(bob, 1)[0]  # waiting on bob, who is away
    listed = logged_in(game.seat_list()[1].user).get("/your-turn/").content.decode()
    theirs = listed.split('data-testid="waiting-on-them"')[1].split("</ol>")[0]
    away = "on vacation until 04 Mar, 09:00 UTC, the clock stands still; then 1 day to move; then their bank"
    assert away in " ".join(theirs.split())
