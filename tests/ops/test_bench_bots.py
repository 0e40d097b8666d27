"""The load benchmark's bots read the real board: a template change must not leave them stuck."""

from __future__ import annotations

import random

import pytest

from bench.load import board_version, decide, options, phase
from games.engine.rules import HouseRules
from games.play.models import Game
from tests.play.factories import fixed_secrets, human_game, logged_in, make_user

pytestmark = pytest.mark.django_db


def test_two_bots_play_a_whole_game_from_the_boards_the_site_sends(monkeypatch):
    fixed_secrets(monkeypatch, "bench")
    alice, bob = make_user("alice"), make_user("bob")
    game = human_game(alice, bob, rules=HouseRules(target=61))
    clients = [logged_in(user, headers={"HX-Request": "true"}) for user in (alice, bob)]
    boards = [client.get(f"/games/{game.pk}/").content.decode() for client in clients]
    rng = random.Random(3)
    kinds = set()
    for _ in range(600):
        if all(phase(board) == "match_over" for board in boards):
            break
        movers = [i for i, board in enumerate(boards) if decide(board, rng) is not None]
        assert movers, f"neither bot sees a move: {[phase(b) for b in boards]}"
        i = rng.choice(movers)
        fields = decide(boards[i], rng)
        kinds.add(fields[0][1])
        form: dict[str, list[str]] = {"version": [str(board_version(boards[i]))]}
        for name, value in fields:
            form.setdefault(name, []).append(value)
        answer = clients[i].post(f"/games/{game.pk}/act/", form)
        assert answer.status_code == 200, (fields, answer.content[:300])
        # The mover reads the answer; the other the board its socket would be pushed.
        other = 1 - i
        boards[i] = answer.content.decode()
        boards[other] = clients[other].get(f"/games/{game.pk}/").content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {"cut_for_deal", "discard", "play", "go", "next_deal"} <= kinds


def test_a_board_is_read_once():
    options.cache_clear()
    board = ('<div id="board" class="board-page phase-show" data-version="9">'
             '<button name="type" value="next_deal">')
    assert decide(board, random.Random(1)) == [("type", "next_deal")]
    assert decide(board, random.Random(2)) == [("type", "next_deal")]
    assert options.cache_info().hits == 1
