"""The play app's models were the "games" app's: a database migrated before the site was split into
apps (its records say "games", its tables are named "games_…") keeps every game, every deal of
history and every tournament when it is migrated now."""

from __future__ import annotations

import random

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from games.history.models import PlayerGame
from games.play.models import Game, Move, Round, Seat
from games.tournaments.models import Match, Tournament
from tests.play.factories import human_game, make_user, play_out
from tests.tournaments.helpers import active_matches, make_players, make_tournament, play_match

# The schema as it stood before the split: the last migrations the "games" app had applied, and the
# other apps' migrations of that time.
BEFORE_THE_SPLIT = [
    ("play", "0007_connection_closed_at"),
    ("history", "0003_resigned_margins"),
    ("tournaments", "0002_turn_timer"),
]


def _migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def _latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes() if key[0] in ("play", "history", "tournaments")]


def _tables() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


def _what_is_there() -> dict:
    return {
        "games": sorted(Game.objects.values_list("pk", "status", "version", "move_count")),
        "seats": Seat.objects.count(),
        "moves": sorted(Move.objects.values_list("game_id", "seq")),
        "rounds": Round.objects.count(),
        "history": sorted(PlayerGame.objects.values_list("game_id", "user_id", "result", "score")),
        "tournaments": sorted(Tournament.objects.values_list("pk", "status", "champion_id")),
        "matches": sorted(Match.objects.values_list("pk", "game_id", "winner_id")),
    }


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_split_keeps_its_games_history_and_tournaments():
    alice, bob = make_user("alice"), make_user("bob")
    game = human_game(alice, bob)
    play_out(game, {0: alice, 1: bob}, random.Random(3))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    t = make_tournament(make_players(2))
    from games.tournaments import services as tournament_services

    tournament_services.tournament_start(tournament_id=t.pk)
    for match in active_matches(t):
        play_match(match)
    before = _what_is_there()
    assert before["history"] and before["matches"] and before["rounds"] > 3

    _migrate(BEFORE_THE_SPLIT)
    tables = _tables()
    assert {"games_game", "games_seat", "games_move", "games_round", "games_connection"} <= tables
    assert not {"play_game", "play_move"} & tables
    # The records of such a database name the old app, as the migrations it ran wrote them.
    applied = MigrationRecorder(connection).applied_migrations()
    assert ("games", "0007_connection_closed_at") in applied
    assert ("play", "0008_tables_of_the_play_app") not in applied
    assert ContentType.objects.filter(app_label="games", model="game").exists()

    _migrate(_latest())
    tables = _tables()
    renamed = {"play_game", "play_seat", "play_move", "play_round", "play_connection", "play_game_invitees"}
    assert renamed <= tables
    assert not {t for t in tables if t.startswith("games_")}
    assert _what_is_there() == before
    assert ContentType.objects.get_for_model(Game).app_label == "play"
    assert not ContentType.objects.filter(app_label="games").exists()
    # The migrated games still play on and replay from their log.
    finished = Game.objects.get(pk=game.pk)
    assert finished.seat_names() == ["alice", "bob"]
    from games.history.replay import final_state

    assert final_state(finished).phase == "match_over"
