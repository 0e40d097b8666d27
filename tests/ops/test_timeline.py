"""A move's stages: the servers' timestamps (games/infra/timeline.py) and bench.load --stages' sums."""

from __future__ import annotations

import gc
import io
import logging

import pytest

from bench.stages import breakdown, collector, print_breakdown, read_marks
from games.engine.actions import action_to_dict
from games.engine.game import legal_actions
from games.engine.rules import HouseRules
from games.infra import timeline
from games.play import services

LOG = """\
2026-12-01 09:00:00,000 INFO pid=1 games.actions game=7 user=3 action=play version=12 latency_ms=1.4
2026-12-01 09:00:00,000 DEBUG pid=1 games.timeline stage=http path=/games/7/act/ at=1000.500
2026-12-01 09:00:00,000 DEBUG pid=1 games.timeline stage=http path=/lobby/ at=1000.900
2026-12-01 09:00:00,000 DEBUG pid=1 games.timeline stage=view game=7 at=1002.000
2026-12-01 09:00:00,000 DEBUG pid=1 games.timeline stage=commit game=7 version=12 at=1004.000
2026-12-01 09:00:00,000 DEBUG pid=1 games.timeline stage=answered game=7 version=12 at=1005.000
2026-12-01 09:00:00,000 DEBUG pid=2 games.timeline stage=received game=7 version=12 user=4 at=1004.500
2026-12-01 09:00:00,000 DEBUG pid=2 games.timeline stage=drawn game=7 version=12 user=4 at=1006.000
2026-12-01 09:00:00,000 DEBUG pid=2 games.timeline stage=sent game=7 version=12 user=4 at=1006.100
2026-12-01 09:00:00,000 DEBUG pid=2 games.timeline stage=drawn game=7 version=12 user=4 at=1090.000
2026-12-01 09:00:00,000 DEBUG pid=2 games.timeline stage=sent game=8 version=None user=4 at=1007.000
2026-12-01 09:00:00,000 DEBUG pid=2 games.timeline stage=gc generation=1 ms=11.50 collected=30 at=1003.000
"""


def test_stages_line_the_servers_marks_up_with_the_bots_clocks(tmp_path):
    log = tmp_path / "servers.log"
    log.write_text("an earlier level's line games.timeline stage=commit game=7 version=12 at=1.0\n" + LOG)
    marks = read_marks(log, offset=len(log.read_text().splitlines(keepends=True)[0]))
    assert marks["commit"] == {(7, 12): 1004.0}  # from the offset on only
    assert marks["drawn"] == {(7, 12): 1006.0}  # the first drawing of a version
    assert marks["http"] == {7: [1000.5]}  # only the game's moves

    # (game, version made, POST written, answer read, opponent's board read), and a move whose
    # opponent got the board only with a later one: left out.
    figures = breakdown([(7, 12, 1000.0, 1005.5, 1006.4), (7, 13, 1100.0, 1104.0, None)], marks)
    assert figures["moves"] == 1
    expected = {"request in": 0.5, "middleware": 1.5, "move": 2.0, "push on its way": 0.5,
                "board drawn": 1.5, "board written": 0.1, "board read": 0.3, "total": 6.4,
                "answer drawn": 1.0, "answer out": 0.5}
    assert {name: figures[name]["p50"] for name in expected} == pytest.approx(expected)
    # the stages on the push's way add up to the whole
    way = ("request in", "middleware", "move", "push on its way", "board drawn", "board written",
           "board read")
    assert sum(figures[name]["p50"] for name in way) == pytest.approx(figures["total"]["p50"])


def _moves(totals: list[float]) -> tuple[list[tuple], dict]:
    """One move per total, each in its own game: 1 ms in each stage but the move itself."""
    marks = {"http": {}, "view": {}, "commit": {}, "answered": {}, "received": {}, "drawn": {}, "sent": {}}
    moves = []
    for game, total in enumerate(totals):
        posted = 10_000.0 * game
        commit = posted + 2 + (total - 6)  # request in 1, middleware 1, the move the rest
        marks["http"][game], marks["view"][game] = [posted + 1], [posted + 2]
        for stage, at in (("commit", commit), ("answered", commit + 1), ("received", commit + 1),
                          ("drawn", commit + 2), ("sent", commit + 3)):
            marks[stage][(game, 1)] = at
        moves.append((game, 1, posted, commit + 2, commit + 4))
    return moves, marks


def test_the_slowest_moves_show_which_stages_a_tail_is_made_of():
    moves, marks = _moves([6.0] * 198 + [50.0, 106.0])
    figures = breakdown(moves, marks)
    assert figures["moves"] == 200
    # the slowest 1% (two moves): 78 ms on average, 72 of them in the move
    assert figures["total"]["slowest"] == pytest.approx(78.0)
    assert figures["move"]["slowest"] == pytest.approx(72.0)
    assert figures["request in"]["slowest"] == pytest.approx(1.0)
    slowest = figures["slowest_moves"]
    top = [(m["game"], m["total"], m["move"]) for m in slowest[:3]]
    assert top == [(199, 106.0, 100.0), (198, 50.0, 44.0), (0, 6.0, 0.0)]
    assert slowest[0]["posted_at"] == pytest.approx(1990.0)  # seconds, as the wall clock
    assert len(slowest) == 10
    out = io.StringIO()
    print_breakdown(figures, out, collector([(5.0, 1, 11.5)], 0, 10))
    assert "100.0 of them in move" in out.getvalue()
    assert "middle 1 (p50 11.5, max 11.5 ms)" in out.getvalue()


def test_collector_passes_are_counted_per_generation_within_the_window(tmp_path):
    log = tmp_path / "servers.log"
    log.write_text(LOG)
    passes = read_marks(log)["gc"]
    assert passes == [(1003.0, 1, 11.5)]
    passes += [(1001.0, 0, 1.0), (1002.0, 0, 3.0), (1002.5, 0, 2.0), (999.0, 2, 40.0), (1100.0, 2, 30.0)]
    assert collector(passes, 1000.0, 1100.0) == {
        "young": {"passes": 3, "p50": 2.0, "max": 3.0},
        "middle": {"passes": 1, "p50": 11.5, "max": 11.5},
        "full": {"passes": 0, "p50": None, "max": None},  # one before the window, one at its end
    }


def test_the_collectors_passes_are_logged_only_when_asked(caplog):
    timeline.watch_collector()
    assert timeline._on_collect not in gc.callbacks  # the marks are off: nothing to log to
    try:
        with caplog.at_level(logging.DEBUG, logger="games.timeline"):
            timeline.watch_collector()
            timeline.watch_collector()  # once only
            assert gc.callbacks.count(timeline._on_collect) == 1
            gc.collect(1)
    finally:  # the interpreter reads its own list: the callback must be taken out of that one
        while timeline._on_collect in gc.callbacks:
            gc.callbacks.remove(timeline._on_collect)
    lines = [r.getMessage() for r in caplog.records if "stage=gc" in r.getMessage()]
    assert lines and lines[-1].startswith("stage=gc generation=1 ms=")


def test_a_move_with_a_mark_missing_is_left_out(tmp_path):
    log = tmp_path / "servers.log"
    log.write_text("\n".join(line for line in LOG.splitlines() if "stage=received" not in line))
    assert breakdown([(7, 12, 1000.0, 1005.5, 1006.4)], read_marks(log))["moves"] == 0


def _post_a_move(client, game, players):
    game.refresh_from_db()
    state = services.load_state(game)
    seat = min(state.to_act)
    client.force_login(players[seat])
    action = action_to_dict(legal_actions(state, seat)[0])
    data = {k: v for k, v in action.items() if k != "seat"} | {"version": game.version}
    assert client.post(f"/games/{game.pk}/act/", data, headers={"HX-Request": "true"}).status_code == 200


@pytest.mark.django_db
def test_a_move_marks_its_stages_only_when_asked(client, django_user_model, caplog,
                                                 django_capture_on_commit_callbacks):
    players = [django_user_model.objects.create_user(f"tl{i}", password="x") for i in range(2)]
    game = services.game_create_between(players=players, rules=HouseRules())
    with caplog.at_level(logging.INFO, logger="games.timeline"):
        _post_a_move(client, game, players)
    assert "stage=" not in caplog.text  # off: nothing logged

    with caplog.at_level(logging.DEBUG, logger="games.timeline"), \
            django_capture_on_commit_callbacks(execute=True):  # the test's transaction never commits
        _post_a_move(client, game, players)
    stages = [r.getMessage().split()[0] for r in caplog.records if r.name == "games.timeline"]
    assert sorted(stages) == ["stage=answered", "stage=commit", "stage=view"]
    game.refresh_from_db()
    assert f"stage=commit game={game.pk} version={game.version} at=" in caplog.text
