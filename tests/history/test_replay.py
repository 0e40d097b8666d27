"""The Move log is the truth: replaying it through the engine rebuilds every state of the live game."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest

from games.engine.game import GameState
from games.engine.rules import HouseRules
from games.history import replay_board
from games.history.replay import ReplayError, final_state, replay_steps, state_at
from games.play import components, services
from games.play.models import Game, Move
from tests.history.helpers import (
    finish_between,
    finish_table,
    finish_vs_computer,
    play_recording,
    resign_after,
)
from tests.play.factories import act, human_game, stack

pytestmark = pytest.mark.django_db


def test_replay_equals_the_live_game_at_every_step_against_the_computer(alice):
    game = services.game_create_vs_computer(user=alice, level="standard", rules=HouseRules())
    snapshots = play_recording(game, {0: alice}, random.Random(7))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    steps = list(replay_steps(game))
    assert len(steps) == Move.objects.filter(game=game).count() == len(snapshots) - 1
    assert GameState.from_dict(snapshots[0]) == steps[0].before
    for step in steps:
        assert step.after.to_dict() == snapshots[step.number], f"step {step.number} differs"


def test_replay_equals_the_live_match_between_two_people_with_manual_counting(alice, bob):
    rules = HouseRules(target=61, match_games=3, manual_counting=True, muggins=True)
    game = services.game_create_between(players=[alice, bob], rules=rules)
    snapshots = play_recording(game, {0: alice, 1: bob}, random.Random(3))
    for step in replay_steps(game):
        assert step.after.to_dict() == snapshots[step.number]
    game.refresh_from_db()
    assert len(game.result["games"]) >= 2  # a real match: more than one game


def test_state_at_gives_the_state_after_n_moves(alice, bob):
    game = finish_between(alice, bob, rules=HouseRules(target=61), seed=5)
    total = Move.objects.filter(game=game).count()
    state0, step0 = state_at(game, 0)
    assert step0 is None and state0.phase == "cut"
    state, step = state_at(game, total)
    assert step.number == total and state.to_dict() == game.state
    middle, step = state_at(game, total // 2)
    assert step.move.seq == Move.objects.filter(game=game).order_by("seq")[total // 2 - 1].seq
    with pytest.raises(ValueError):
        state_at(game, total + 1)


def test_every_game_in_the_test_database_replays(alice, bob, carol):
    finish_vs_computer(alice, seed=2, rules=HouseRules(target=61))
    finish_vs_computer(bob, seed=4, level="expert", rules=HouseRules(target=61, peg_out_zone=5))
    finish_between(alice, bob, seed=6, rated=True)
    finish_between(bob, carol, seed=8, rules=HouseRules(target=61, skunks=False, match_games=3))
    finish_between(carol, alice, seed=9, rules=HouseRules(target=61, manual_counting=True, muggins=True))
    resign_after(alice, carol, 0)  # resigns during the cut for deal
    resign_after(alice, bob, 25, resigner=1)  # resigns in the middle of a deal
    in_progress = human_game(alice, carol)
    act(in_progress, alice, {"type": "cut_for_deal", "position": 3})

    games = list(Game.objects.exclude(status=Game.Status.WAITING))
    assert len(games) == 8
    for game in games:
        state = final_state(game)  # raises ReplayError if any move's events differ from the log
        assert state.to_dict() == game.state, f"game {game.pk} does not rebuild"


def test_a_log_that_does_not_replay_is_reported(alice, bob):
    game = human_game(alice, bob)
    stack(game, dealer=0, hands=("AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"), starter="7D", scores=(50, 60))
    act(game, alice, {"type": "resign"})  # the logged events name the stacked scores
    with pytest.raises(ReplayError):
        final_state(game)


def test_the_step_in_the_address_is_the_step_the_page_names(alice, client):
    """?step=N names move N of the game's log, whatever moves before it were folded; the move that
    begins a deal says so rather than that the last player was "ready" (the others' "ready" are
    folded into it, so a viewer who pressed Next hand first would read the opposite)."""
    from games.history.replay_board import shown_moves

    game = finish_vs_computer(alice, seed=3)
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    shown = shown_moves(moves)
    assert len(shown) - 1 < len(moves)  # some "ready" was folded
    deals = [n for n in shown if n and moves[n - 1].action["type"] == "next_deal"]
    client.force_login(alice)
    for step in (shown[-1], deals[0], shown[len(shown) // 2]):
        html = client.get(f"/games/{game.pk}/replay/?step={step}").content.decode()
        assert f'<strong data-testid="step">{step}</strong> of {shown[-1]}' in html
    html = client.get(f"/games/{game.pk}/replay/?step={deals[0]}").content.decode()
    assert "The next deal begins" in html and "ready for the next deal" not in html
    # A folded move's address shows the move that carries it.
    folded = next(n for n in range(1, len(moves)) if n not in shown)
    html = client.get(f"/games/{game.pk}/replay/?step={folded}").content.decode()
    carried = next(n for n in shown if n >= folded)
    assert f'<strong data-testid="step">{carried}</strong>' in html


class _Drawn(HTMLParser):
    """The parts of a replay step a viewer sees change (the table, the pegboard, the show): each
    element marked ``data-drawn``, with everything inside it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if self.depth or "data-drawn" in dict(attrs):
            self.depth += tag not in VOID
            self.parts.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        if self.depth:
            self.parts.append(f"</{tag}>")
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def drawn(html: str) -> str:
    parser = _Drawn()
    parser.feed(html)
    return "".join(parser.parts)


@pytest.mark.parametrize("table", ["computer", "manual", "three", "four"])
def test_the_replay_never_shows_the_same_table_twice_in_a_row(alice, bob, carol, monkeypatch, table):
    """Every move of a seeded game drawn as a step: a move is folded exactly when it draws the
    table, the pegboard and the show as the move before it did, so Back and Forward always show
    something happen."""
    easy = {"kind": "computer", "level": "easy"}
    game = {
        "computer": lambda: finish_vs_computer(alice, seed=3, rules=HouseRules(pone_cuts=True)),
        "manual": lambda: finish_between(alice, bob, seed=5, rules=HouseRules(
            target=61, manual_counting=True, muggins=True)),
        "three": lambda: finish_table(alice, [easy, easy], rules=HouseRules(players=3, target=61), seed=72),
        "four": lambda: finish_table(alice, [easy, easy, easy], rules=HouseRules(players=4, target=61),
                                     seed=73),
    }[table]()
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    shown = replay_board.shown_moves(moves)
    assert len(shown) < len(moves)  # the game has moves to fold
    # Each move drawn on its own, none folded.
    monkeypatch.setattr(replay_board, "shown_moves", lambda ms: list(range(len(ms) + 1)))
    tables = [drawn(components.render("history/replay_board.jinja",
                                      replay_board.replay_context(game, n, moves, 0)))
              for n in range(len(moves) + 1)]
    assert all("seat__score" in t and "board-svg" in t for t in tables)
    for n in range(1, len(moves) + 1):
        if n in shown:
            assert tables[n] != tables[n - 1], f"move {n} ({moves[n - 1].action}) looks as the one before"
        else:
            assert tables[n] == tables[n - 1], f"move {n} ({moves[n - 1].action}) is folded yet changes"
    # The steps the buttons go through: none looks as the one before it.
    steps = [tables[n] for n in shown]
    assert all(a != b for a, b in zip(steps, steps[1:], strict=False))
