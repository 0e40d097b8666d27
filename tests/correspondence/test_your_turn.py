"""'Your turn': the games waiting on a player, the least time left first, a count in every page's
menu, a move that opens the next game waiting, and the board's clock and out-of-time choices."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play.models import Game
from tests.correspondence.conftest import player
from tests.correspondence.support import correspondence_game, move_once, passing_move
from tests.play.factories import as_form, logged_in

pytestmark = pytest.mark.django_db


def waiting_games(alice, count: int, *, days: int = 1) -> list[Game]:
    """``count`` games against new opponents, each waiting on alice alone (the opponent has cut)."""
    games = []
    for n in range(count):
        opponent = player(f"opp{len(Game.objects.all())}x{n}")
        game = correspondence_game(alice, opponent, days=days)
        move_once(game, {0: alice, 1: opponent}, seat=1)
        games.append(game)
    return games


def test_the_list_puts_the_least_time_left_first(clock, players):
    alice, bob = players
    slow = waiting_games(alice, 1, days=7)[0]
    clock.advance(hours=1)
    fast = waiting_games(alice, 1, days=1)[0]
    mine = correspondence_game(alice, bob)
    move_once(mine, {0: alice, 1: bob}, seat=0)  # waiting on bob only
    page = logged_in(alice).get("/your-turn/").content.decode()
    waiting = page.split('data-testid="waiting-on-me"')[1].split("</ol>")[0]
    assert [int(g) for g in re.findall(r"/games/(\d+)/", waiting)] == [fast.pk, slow.pk]
    theirs = page.split('data-testid="waiting-on-them"')[1].split("</ol>")[0]
    assert f"/games/{mine.pk}/" in theirs and "against bob" in theirs
    assert "Waiting on you (2)" in page


def test_the_menu_counts_the_games_waiting_and_follows_each_move(clock, players, on_commit):
    alice, bob = players
    client = logged_in(alice)
    none, one = (f'Your turn<span id="your-turn-count">{n}</span></a>' for n in ("", " (1)"))
    assert none in client.get("/rules/").content.decode()
    game = on_commit(correspondence_game, alice, bob)  # both are to cut
    assert one in client.get("/rules/").content.decode()
    on_commit(move_once, game, {0: alice, 1: bob}, 0)
    assert none in client.get("/rules/").content.decode()


def test_your_turn_asks_a_handful_of_queries_however_many_games(clock, players):
    alice, _ = players
    client = logged_in(alice)
    waiting_games(alice, 3)
    client.get("/your-turn/")
    with CaptureQueriesContext(connection) as few:
        assert client.get("/your-turn/").status_code == 200
    waiting_games(alice, 30)
    client.get("/your-turn/")
    with CaptureQueriesContext(connection) as many:
        assert client.get("/your-turn/").content.decode().count("against opp") == 33
    assert len(many) == len(few) <= 8, [q["sql"] for q in many.captured_queries]


def test_a_move_opens_the_next_game_waiting(clock, players):
    alice, bob = players
    first = correspondence_game(alice, bob)
    users, rng = {0: alice, 1: bob}, random.Random(1)
    mine = passing_move(first, users, rng)  # alice's, passing the turn to bob
    other = waiting_games(alice, 1)[0]
    client = logged_in(alice, headers={"HX-Request": "true"})
    answer = client.post(f"/games/{first.pk}/act/",
                         {"version": Game.objects.get(pk=first.pk).version, **as_form(mine)})
    assert answer.status_code == 204 and answer["HX-Redirect"] == f"/games/{other.pk}/"
    # Without JavaScript, the same: a redirect to the next game.
    mine = passing_move(other, {0: alice, 1: Game.objects.get(pk=other.pk).seat_list()[1].user}, rng)
    answer = logged_in(alice).post(f"/games/{other.pk}/act/",
                                   {"version": Game.objects.get(pk=other.pk).version, **as_form(mine)})
    assert answer.status_code == 302 and answer["Location"] in (f"/games/{first.pk}/", f"/games/{other.pk}/")


def clock_text(board: str) -> str:
    """The board's own-pace clock as a reader sees it: its words without the markup."""
    section = board.split('data-testid="correspondence-clock"', 1)[1].split("</section>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", section.split(">", 1)[1]).split()).replace(" :", ":")


def test_the_board_shows_the_clocks_and_lets_the_waiting_player_claim_or_give_time(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)
    board = logged_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert "You: waiting, with your bank of 2 days" in clock_text(board)
    assert "bob: 1 day to move; then their bank of 2 days" in clock_text(board)
    assert "Claim the win" not in board
    clock.advance(days=3, hours=1)
    board = logged_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert "out of time" in board and "Claim the win on time" in board and "Give more time" in board
    assert "Claim the win" not in logged_in(bob).get(f"/games/{game.pk}/").content.decode()
    answer = logged_in(alice).post(f"/games/{game.pk}/give-time/")
    assert answer.status_code == 302
    # More time is the days of one move, and whatever of it goes unused is kept as the bank.
    board = logged_in(bob).get(f"/games/{game.pk}/").content.decode()
    assert "You: 1 day to move, all from your bank" in clock_text(board)
    clock.advance(days=2)
    logged_in(alice).post(f"/games/{game.pk}/claim-on-time/")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0


def test_a_claim_too_early_is_refused_with_a_message(clock, players):
    alice, bob = players
    game = correspondence_game(alice, bob)
    move_once(game, {0: alice, 1: bob}, seat=0)
    answer = logged_in(alice, headers={"HX-Request": "true"}).post(f"/games/{game.pk}/claim-on-time/")
    assert answer.status_code == 409 and "still has time" in answer.content.decode()


def test_a_correspondence_game_is_created_from_the_lobby(players):
    alice, bob = players
    answer = logged_in(alice).post("/games/new/seek/", {
        "seek-opponent": "bob", "seek-days_per_move": "3", "seek-target": "121", "seek-skunks": "on",
        "seek-peg_out_zone": "0", "seek-pone_cuts": "on", "seek-match_games": "1", "seek-turn_timer": "0",
    })
    assert answer.status_code == 302, answer.content.decode()[:2000]
    game = Game.objects.get(invited=bob)
    assert game.days_per_move == 3
    lobby = logged_in(bob).get("/lobby/").content.decode()
    assert "3 days a move" in lobby


def test_a_turn_timer_with_days_a_move_is_refused_with_a_message(players):
    alice, _ = players
    answer = logged_in(alice).post("/games/new/seek/", {
        "seek-days_per_move": "3", "seek-target": "121", "seek-peg_out_zone": "0", "seek-match_games": "1",
        "seek-turn_timer": "30",
    })
    assert answer.status_code == 400 and "not a turn timer" in answer.content.decode()
    assert not Game.objects.exists()


def test_emails_and_vacation_settings(clock, players):
    alice, bob = players
    client = logged_in(alice)
    assert client.get("/your-turn/settings/").status_code == 200
    assert client.post("/your-turn/settings/", {"turn_notices": "every", "digest": ""}).status_code == 302
    assert client.post("/your-turn/settings/", {"turn_notices": "loud"}).status_code == 400
    game = correspondence_game(alice, bob)
    assert client.post("/your-turn/vacation/", {"days": "99"}).status_code == 400
    assert client.post("/your-turn/vacation/", {"days": "x"}).status_code == 400
    assert client.post("/your-turn/vacation/", {"days": "5"}).status_code == 302
    assert "You are on vacation" in client.get("/your-turn/").content.decode()
    assert "until" in client.get(f"/games/{game.pk}/").content.decode()
    assert client.post("/your-turn/vacation/", {"end": "1"}).status_code == 302
    assert "You are on vacation" not in client.get("/your-turn/").content.decode()
