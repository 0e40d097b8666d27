"""The hot path of a move and of a push: ``Game.objects.for_play`` and the move counters on the game.

``for_play`` must give exactly what ``with_seats`` gives (it replaces it where every millisecond
counts), and ``move_count`` / ``last_events`` must always agree with the Move log they summarise.
"""

from __future__ import annotations

import importlib
import random

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.engine.rules import HouseRules
from games.play import services
from games.play.board.player import render_board_oob
from games.play.models import Game, Move, Seat
from tests.play.factories import (
    computer_game,
    fixed_secrets,
    human_game,
    logged_in,
    make_user,
    play_out,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "hot")


def _fields(game: Game) -> dict:
    """Every column, with its Python type: 0 == False, but a template prints them differently."""
    return {f.attname: (type(getattr(game, f.attname)), getattr(game, f.attname))
            for f in Game._meta.concrete_fields}


def _seats(game: Game) -> list[tuple]:
    return [(s.pk, s.index, s.user_id, s.computer_level, s.timeouts, s.display_name)
            for s in game.seats.all()]


def test_for_play_gives_what_with_seats_gives(alice, bob):
    game = human_game(alice, bob)
    other = human_game(bob, alice)  # a second game: nothing of it may leak into the first
    fast, slow = Game.objects.for_play(game.pk), Game.objects.with_seats().get(pk=game.pk)
    assert _fields(fast) == _fields(slow)
    assert _seats(fast) == _seats(slow)
    assert fast.seat_names() == slow.seat_names() == ["alice", "bob"]
    assert (fast.seat_of(alice), fast.seat_of(bob), fast.seat_of(make_user("carol"))) == (0, 1, None)
    assert [s.index for s in fast.seats.filter(index=1)] == [1]  # a filter stays within this game
    assert fast.seats.filter(game=other).count() == 0
    assert services.load_state(fast) == services.load_state(slow)


def test_for_play_computer_seats_and_missing_games(alice):
    game = computer_game(alice, level="expert")
    fast = Game.objects.for_play(game.pk)
    assert _seats(fast) == _seats(Game.objects.with_seats().get(pk=game.pk))
    assert fast.has_computer and fast.seats.all()[1].user is None
    assert Game.objects.for_play(game.pk + 1000) is None


def test_for_play_a_game_without_seats(alice, bob):
    game = human_game(alice, bob)
    Seat.objects.filter(game=game).delete()
    fast = Game.objects.for_play(game.pk)
    assert _fields(fast) == _fields(Game.objects.with_seats().get(pk=game.pk))
    assert list(fast.seats.all()) == []


def test_for_play_reads_one_statement_and_fetches_the_rest_when_asked(alice, bob):
    game = human_game(alice, bob)
    alice.email = "alice@example.com"
    alice.save()
    with CaptureQueriesContext(connection) as queries:
        fast = Game.objects.for_play(game.pk)
        names = fast.seat_names()
        seat = fast.seat_of(alice)
    assert len(queries) == 1 and names == ["alice", "bob"] and seat == 0
    # Only the id and name of a player are read; anything else is loaded on demand, correctly.
    assert fast.seats.all()[0].user.email == "alice@example.com"


def test_for_play_locks_the_row_for_a_move(alice, bob):
    game = human_game(alice, bob)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert Game.objects.for_play(game.pk, lock=True).pk == game.pk
    locked = "FOR UPDATE" in queries[0]["sql"]
    assert locked == connection.features.has_select_for_update
    if connection.features.has_select_for_update_of:  # the game's row alone, not its seats'
        assert queries[0]["sql"].endswith("FOR UPDATE OF p")


def test_postgresql_plans_a_repeated_hot_statement_once(alice, bob):
    """Planning the game-and-seats join cost PostgreSQL more than running it, twice a move. Once
    prepared, PostgreSQL keeps a generic plan for it when its statistics say it is as good (with
    the bench's tables it did: planning time fell from 0.27 ms a statement to nothing)."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    game = human_game(alice, bob)
    for _ in range(8):
        Game.objects.for_play(game.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
        prepared = cursor.fetchall()
    # Prepared after its fifth run on this connection, and run as a prepared statement since.
    assert any(sql.startswith("SELECT p.") and runs >= 3 for sql, runs in prepared), prepared


def _moves(game: Game) -> int:
    return Move.objects.filter(game=game).count()


def _summary_from_log(game: Game) -> tuple[int, list]:
    last = Move.objects.filter(game=game).order_by("-seq").first()
    if last is None:
        return 0, []
    return last.seq, ([last.note] if last.note else []) + last.events


def test_move_count_and_last_events_follow_the_move_log(alice, bob):
    game = human_game(alice, bob)
    assert (game.move_count, game.last_events) == (0, [])
    rng = random.Random(5)
    users = {0: alice, 1: bob}
    for stop_after in (1, 2, 9, 30):
        play_out(game, users, rng, stop=lambda state, n=stop_after: _moves(game) >= n)
        game.refresh_from_db()
        assert (game.move_count, game.last_events) == _summary_from_log(game)
        assert game.move_count == Move.objects.filter(game=game).count()
    play_out(game, users, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert (game.move_count, game.last_events) == _summary_from_log(game)


def test_a_timeout_note_is_among_the_last_events(alice, bob):
    game = human_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(turn_timer=30)
    Game.objects.filter(pk=game.pk).update(turn_started_at=game.created_at.replace(year=2000))
    services.game_timeout(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.last_events and game.last_events[0]["kind"] == "timeout"
    assert (game.move_count, game.last_events) == _summary_from_log(game)


def test_the_migration_fills_the_counters_from_the_log(alice, bob):
    game = human_game(alice, bob)
    play_out(game, {0: alice, 1: bob}, random.Random(2), stop=lambda state: _moves(game) >= 7)
    untouched = human_game(bob, alice)
    Game.objects.update(move_count=0, last_events=[])
    migration = importlib.import_module("games.play.migrations.0004_game_move_count_last_events")
    migration.fill_from_move_log(apps, None)
    game.refresh_from_db()
    untouched.refresh_from_db()
    assert (game.move_count, game.last_events) == _summary_from_log(game) and game.move_count == 7
    assert (untouched.move_count, untouched.last_events) == (0, [])


def test_a_move_and_a_push_stay_cheap_in_queries(alice, bob):
    """The session, the user, the locked game with its seats, the snapshot and the new move (with
    the transaction's own statements) and who is at the table, redrawn with the board; a push reads
    the game with its seats and the table's presence."""
    game = human_game(alice, bob)
    client = logged_in(alice, headers={"HX-Request": "true"})
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/games/{game.pk}/act/", {"type": "cut_for_deal", "position": 3,
                                                          "version": game.version})
    assert response.status_code == 200
    statements = [q["sql"] for q in queries.captured_queries
                  if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]
    assert len(statements) <= 6, statements
    update, insert = (next(i for i, s in enumerate(statements) if s.startswith(prefix))
                      for prefix in ('UPDATE "play_game"', 'INSERT INTO "play_move"'))
    assert update < insert  # the version check comes first: a stale move writes nothing
    with CaptureQueriesContext(connection) as queries:
        assert render_board_oob(game.pk, bob, "x" * 64)
    assert len(queries) == 2, [q["sql"] for q in queries.captured_queries]
    assert "play_connection" in queries.captured_queries[-1]["sql"]


def test_a_boards_urls_are_remembered_per_script_prefix():
    from django.urls import get_script_prefix, reverse, set_script_prefix

    from games.play.board.links import game_url

    assert game_url("act", 41) == reverse("act", args=[41]) == "/games/41/act/"
    before = get_script_prefix()
    try:
        set_script_prefix("/cribbage/")  # a site served under a prefix gets its own URLs
        assert game_url("act", 41) == reverse("act", args=[41]) == "/cribbage/games/41/act/"
    finally:
        set_script_prefix(before)
    assert game_url("say", 41) == "/games/41/say/"


def test_a_move_is_written_as_the_orm_would_write_it(alice, bob):
    """The Move row and the game's snapshot, written by plain statements, read back through the ORM
    with every value and type as given (JSON, datetimes, booleans, a missing note)."""
    game = human_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(turn_timer=30, turn_started_at=game.created_at.replace(year=2000))
    services.game_timeout(user=bob, game_id=game.pk)  # a note and by_timeout on each cut
    game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert [m.seq for m in moves] == [1, 2] and all(m.by_timeout is True for m in moves)
    assert all(isinstance(m.note, dict) and m.note["kind"] == "timeout" for m in moves)
    assert moves[0].action == {"type": "cut_for_deal", "seat": 0, "position": moves[0].action["position"]}
    assert moves[0].created_at.tzinfo is not None and moves[0].created_at <= game.updated_at
    assert isinstance(game.state, dict) and game.version == 3 and game.turn_started_at == game.updated_at
    plain = human_game(bob, alice)
    services.game_act(user=bob, game_id=plain.pk, version=plain.version,
                      action={"type": "cut_for_deal", "position": "9"})
    move = Move.objects.get(game=plain)
    assert move.note is None and move.by_timeout is False and move.seat == 0


def test_moves_have_one_index_by_game_the_unique_sequence():
    """Every move INSERTs an entry in each index of its table: the (game, seq) unique index serves
    every lookup by game, so the foreign key has no index of its own."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Move._meta.db_table)
    by_game = {name: c for name, c in found.items()
               if (c["index"] or c["unique"]) and not c["foreign_key"] and c["columns"][:1] == ["game_id"]}
    assert [c["columns"] for c in by_game.values()] == [["game_id", "seq"]]
    assert all(c["unique"] for c in by_game.values())


def test_presence_reads_its_sockets_as_the_orm_would(alice, bob):
    """The table's presence is read on every board through ``rows.where``: the same rows, values
    and types (timezone-aware datetimes, a null closing time) in the same order as the ORM's."""
    from datetime import timedelta

    from django.utils import timezone

    from games.infra import rows
    from games.play.models import Connection

    game, other = human_game(alice, bob), human_game(bob, alice)
    now = timezone.now()
    Connection.objects.create(game=game, user=alice, channel_name="a1", last_seen=now - timedelta(seconds=50),
                              closed_at=now - timedelta(seconds=40))
    Connection.objects.create(game=game, user=bob, channel_name="b1", last_seen=now)
    Connection.objects.create(game=game, user=alice, channel_name="a2", last_seen=now - timedelta(seconds=5))
    Connection.objects.create(game=other, user=alice, channel_name="elsewhere", last_seen=now)

    def values(conns):
        return [[(f.attname, type(getattr(c, f.attname)), getattr(c, f.attname))
                 for f in Connection._meta.concrete_fields] for c in conns]

    fast = rows.where(Connection, connection, "game", game.pk, order_by="-last_seen")
    slow = Connection.objects.filter(game=game).order_by("-last_seen")
    assert values(fast) == values(slow)
    assert [c.channel_name for c in fast] == ["b1", "a2", "a1"]
    assert all(c.last_seen.tzinfo is not None for c in fast)
    oldest_first = rows.where(Connection, connection, "game", game.pk, order_by="last_seen")
    assert [c.channel_name for c in oldest_first] == ["a1", "a2", "b1"]
    assert rows.where(Connection, connection, "game", 10**9) == []


def test_plain_writes_store_what_the_orms_writes_store(alice, bob):
    """``rows.insert`` and ``rows.update`` (a move's two writes) against ``create`` and
    ``filter().update()``: the same values and types read back, and an UPDATE that matches
    nothing (a stale version) changes nothing and says so."""
    from django.utils import timezone

    from games.infra import rows

    game, twin = human_game(alice, bob), human_game(alice, bob)
    now = timezone.now()
    move = {"seq": 1, "seat": 0, "action": {"type": "go", "seat": 0}, "by_timeout": True, "created_at": now,
            "events": [{"seat": 0, "kind": "say_go", "points": 0, "cards": []}], "note": None}
    rows.insert(Move, connection, {"game_id": game.pk, **move})
    Move.objects.create(game_id=twin.pk, **move)

    def stored(model, **match):
        found = model.objects.get(**match)
        return {f.attname: (type(getattr(found, f.attname)), getattr(found, f.attname))
                for f in model._meta.concrete_fields if f.attname not in ("id", "game_id", "created_at")}

    assert stored(Move, game=game) == stored(Move, game=twin)
    assert Move.objects.get(game=game).created_at == now  # as given: no field's pre_save runs
    fields = {"state": {"phase": "play", "cards": ["5H"]}, "version": game.version + 1, "updated_at": now,
              "turn_started_at": now, "move_count": 1, "last_events": [{"kind": "go"}]}
    assert rows.update(Game, connection, {"id": game.pk, "version": game.version}, fields) == 1
    assert Game.objects.filter(pk=twin.pk, version=twin.version).update(**fields) == 1
    mine, theirs = stored(Game, pk=game.pk), stored(Game, pk=twin.pk)
    assert {k: mine[k] for k in fields} == {k: theirs[k] for k in fields}
    assert rows.update(Game, connection, {"id": game.pk, "version": game.version}, fields) == 0  # stale
    assert stored(Game, pk=game.pk) == mine


def test_a_push_at_a_table_of_four_reads_no_player_field_it_did_not_load(alice):
    """``for_play`` loads each player with their id and name only; a board that read anything else
    of them (an e-mail, a join date) would cost a query per player on every push."""
    bob, carol, dave = make_user("bob"), make_user("carol"), make_user("dave")
    game = services.game_create_table(
        user=alice, rules=HouseRules(players=4),
        seats=[{"kind": "invite", "user": user} for user in (bob, carol, dave)],
    )
    for user in (bob, carol, dave):
        game = services.game_accept(user=user, game_id=game.pk)
    assert game.status == Game.Status.ACTIVE
    for viewer in (alice, bob, carol, dave):
        with CaptureQueriesContext(connection) as queries:
            assert render_board_oob(game.pk, viewer, "x" * 64)
        assert len(queries) == 2, [q["sql"] for q in queries.captured_queries]
