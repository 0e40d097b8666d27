"""A database as the site stored it before the split into apps and before events became data keeps
every game, deal, history row and tournament when it is migrated, and its games read as they did.

The fixture (``fixtures/games_before_events_as_data.json.gz``) was made by that version of the site:
seventeen games (a full game to 121, a forfeit on time, a claimed win, a best of three, manual
counting with muggins, tables of three and four, a game in play, a resignation, a timeout and a
tournament's matches), dumped with ``dumpdata``, beside the words its board, replay and text export
showed then. The test loads the rows into the schema of that time, migrates to today's, and reads
every game again with today's code.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management.color import no_style
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from games.history.export import game_text
from games.history.models import PlayerGame
from games.history.replay import moves_of, replay_steps
from games.history.replay_board import replay_context, shown_moves
from games.play.board.player import board_context
from games.play.models import Connection, Game, Move, Round, Seat
from games.tournaments.models import Entrant, Match, Notice, Tournament

FIXTURE = Path(__file__).parent / "fixtures" / "games_before_events_as_data.json.gz"
# The schema as it stood then: the last migrations of the "games" app (now play's first seven, which
# replace them) and of the other apps.
BEFORE = [
    ("play", "0007_connection_closed_at"),
    ("history", "0003_resigned_margins"),
    ("tournaments", "0002_turn_timer"),
]
# Rows in an order that loads each after what it points to.
ORDER = ["auth.user", "games.game", "games.seat", "games.round", "games.move", "games.connection",
         "history.playergame", "history.rating", "history.ratingchange", "tournaments.tournament",
         "tournaments.entrant", "tournaments.match", "tournaments.notice"]
# Sentences the old words got wrong, as they read now.
CORRECTED = {"You lost the last game and deals first": "You lost the last game and deal first"}


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


def _migrate(targets) -> None:
    _executor().migrate(targets)


def _latest() -> list[tuple[str, str]]:
    # Every app's last migration: going back to BEFORE also unapplied the apps that depend on play
    # (correspondence, say), and the tests after this one need their tables.
    return _executor().loader.graph.leaf_nodes()


def _load(rows: list[dict]) -> None:
    """``rows`` (``dumpdata``'s) into the historical models of the schema ``BEFORE``."""
    apps = _executor().loader.project_state(BEFORE).apps
    for label in ORDER:
        app, name = label.split(".")
        model = apps.get_model("play" if app == "games" else app, name)
        for row in (r for r in rows if r["model"] == label):
            values, many = {model._meta.pk.attname: row["pk"]}, {}
            for field_name, value in row["fields"].items():
                field = model._meta.get_field(field_name)
                if field.many_to_many:
                    many[field_name] = value
                elif field.is_relation:
                    values[field.attname] = value
                else:
                    values[field.attname] = field.to_python(value)
            obj = model.objects.create(**values)
            for field_name, value in many.items():
                getattr(obj, field_name).set(value)


def _reset_sequences() -> None:
    models = [get_user_model(), Game, Seat, Round, Move, Connection, PlayerGame, Tournament, Entrant,
              Match, Notice]
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)


def _words(lines) -> list[list[str]]:
    return [[line.who, CORRECTED.get(str(line.text), str(line.text))] for line in lines]


def _in_the_hole(text: str, target: int) -> str:
    """The old words as they read now that a winner stands in the game hole: "wins 124–108" on a
    121 board reads "wins 121–108" (the old words showed every point the last count took them to)."""
    return re.sub(r"\d+(?=–)|(?<=–)\d+", lambda m: str(min(int(m.group()), target)), text)


# The lines under a manual count (the claim, the penalty, the muggins) that the old download lacked.
CLAIM_LINE = re.compile(r"(?m)^    (\S+ claims \d+, true count|\S+ never counted it|Over-count penalty:|"
                        r"Muggins:|No muggins in this game:).*\n")


def _text_now(text: str, target: int) -> str:
    """The old text download as it reads now: in the game hole, each deal's scores too, a skunk
    said as every result line says it ("(skunk)", not "(a skunk)"), and a manual count's true worth
    on lines of its own (compared without them) rather than "(worth N)" beside the count."""
    text = re.sub(r" \(worth \d+\)$", "", text, flags=re.M)
    text = _in_the_hole(text, target)
    text = re.sub(r"(?m)^(Score: .*)$",
                  lambda m: re.sub(r"\d+", lambda n: str(min(int(n.group()), target)), m.group(1)), text)
    return re.sub(r"\(an? ((?:double |triple )?skunk)\)", r"(\1)", text)


def _winner_first(text: str) -> str:
    """"bob wins the match 1–2" as every "X wins a–b" reads now: the winner's games first."""
    return re.sub(r"(?<=wins the match )[\d–]+",
                  lambda m: "–".join(sorted(m.group().split("–"), key=int, reverse=True)), text)


def _old(pairs, target: int = 121) -> list[list[str]]:
    return [[who, _winner_first(_in_the_hole(CORRECTED.get(text, text), target))] for who, text in pairs]


@pytest.mark.django_db(transaction=True)
def test_an_old_database_keeps_its_games_history_and_tournaments_and_reads_the_same():
    fixture = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    _migrate(BEFORE)
    tables = connection.introspection.table_names()
    assert {"games_game", "games_move", "games_round"} <= set(tables) and "play_game" not in tables
    _load(fixture["rows"])
    # The records of such a database name the old app, as the migrations it ran wrote them.
    applied = MigrationRecorder(connection).applied_migrations()
    assert ("games", "0007_connection_closed_at") in applied
    assert ("play", "0008_tables_of_the_play_app") not in applied

    _migrate(_latest())
    _reset_sequences()
    tables = set(connection.introspection.table_names())
    assert {"play_game", "play_seat", "play_move", "play_round", "play_connection"} <= tables
    assert not {t for t in tables if t.startswith("games_")}
    assert ContentType.objects.get_for_model(Game).app_label == "play"
    counts = {label: sum(r["model"] == label for r in fixture["rows"]) for label in ORDER}
    assert Game.objects.count() == counts["games.game"] == 17
    assert Move.objects.count() == counts["games.move"] and Round.objects.count() == counts["games.round"]
    assert PlayerGame.objects.count() == counts["history.playergame"]
    assert Match.objects.count() == counts["tournaments.match"]
    assert Tournament.objects.get().name == "Club Cup"
    assert Game.objects.filter(organised=True).count() == counts["tournaments.match"]
    # No event holds words any more, and every log replays to the events it holds.
    assert not any("text" in e for m in Move.objects.all() for e in m.events)
    for game in Game.objects.exclude(state=None):
        assert len(list(replay_steps(game))) == game.move_count

    steps = 0
    for pk, expected in fixture["expected"].items():
        game = Game.objects.with_seats().get(pk=int(pk))
        viewer = game.seat_list()[expected["board"]["seat"]].user
        board = board_context(game, viewer)
        assert _words(board["log"]) == _old(expected["board"]["log"], game.target), pk
        assert _words(board["calls"]) == _old(expected["board"]["calls"], game.target), pk
        # A skunk now reads as every result line says it: "wins 121–85 (skunk)".
        headline = re.sub(r" with a ((?:double |triple )?skunk)$", r" (\1)",
                          _in_the_hole(expected["board"]["headline"], game.target))
        assert (board["result"] or {}).get("headline", "") == headline, pk
        if "replay" not in expected:
            continue
        moves = moves_of(game)
        shown = shown_moves(moves)
        for number, step in expected["replay"].items():
            if int(number) not in shown:  # a move that shows nothing new is stepped over now
                continue
            now = replay_context(game, int(number), moves)
            # The step that starts a deal now says so, not that one player was ready for it.
            what = re.sub(r"^.+ (?:is|are) ready for the next deal$", "The next deal begins", step["what"])
            # The cut for deal is one step now, the second cut carrying both, and reads as such.
            what = re.sub(r"^.+ cuts? for deal \(card \d+\)$", "The cut for deal", what)
            assert now["what"] == what, (pk, number)
            events = [_winner_first(_in_the_hole(e, game.target)) for e in step["events"]]
            assert [str(e) for e in now["events"]] == events, (pk, number)
            assert _words(now["log"]) == _old(step["log"], game.target), (pk, number)
            results = [_in_the_hole(r, game.target) for r in step["results"]]
            # Each line is now whole (the winner, the words, the skunk), from the one wording of it.
            assert len(now["results"]) == len(results), (pk, number)
            lines = [r["line"] for r in now["results"]]
            assert all(words in said for said, words in zip(lines, results, strict=True)), (pk, number)
            steps += 1
        assert CLAIM_LINE.sub("", game_text(game)) == _text_now(expected["text"], game.target), pk
    assert steps > 1000  # every step of every finished game was read again
