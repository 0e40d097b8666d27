"""The data migration that turns the notices already written into data (0008): each sentence the
site wrote is read back into what happened and its details, and words the same when shown; one it
cannot read (a name no longer a username) keeps its text. The rows are written on the schema before
it and read on today's, past the renames that followed it."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.tournaments import notice_words
from games.tournaments.models import Notice
from tests.play.factories import make_user

from .helpers import make_tournament

pytestmark = pytest.mark.django_db

migration = import_module("games.tournaments.migrations.0008_notices_as_data")

SENTENCES = [
    "The tournament has started with 4 players.",
    "Round 2 has begun.",
    "Qualifying round 3 of 9 has begun. ann has the bye (a win, no spread).",
    "The director ended the qualifying after round 2 of 5.",
    "The tournament is over: bob is the champion.",
    "The director has paused the tournament: nothing new starts until it resumes; games in play go on.",
    "ann has withdrawn.",
    "bob was entered by the organiser.",
    "ann forfeited ann v bob (round 1).",
    "Forfeit time for ann v bob extended by 15 minutes.",
    "The director entered 2 results (qualifying round 1 of 2).",
    "Result corrected by the organiser: ann v bob (round 1): bob wins 1–0. bob is now the champion.",
    "Qualifying is over. The playoff, seeded by qualifying rank: 1. bob, 2. ann.",
]
# Sentences the site words differently now: the data they became reads in today's words.
REWORDED = {
    "Result corrected by the organiser: ann v bob (round 1): bob wins 1–0. bob is now the champion.":
        "Result corrected by the director: ann v bob (round 1): bob wins 1–0. bob is now the champion.",
}


def test_old_sentences_become_data_and_read_the_same():
    ann, bob = make_user("ann"), make_user("bob")
    names = {"ann": ann.pk, "bob": bob.pk}
    for text in SENTENCES:
        what, params = migration._read(text, names.get)
        said = notice_words.sentence(what, params, {v: k for k, v in names.items()}.get, {})
        assert said == REWORDED.get(text, text)
    assert migration._read("a deleted player has withdrawn.", names.get) is None
    assert migration._read("Welcome, all!", names.get) is None


@pytest.mark.django_db(transaction=True)
def test_the_migration_rewrites_rows_it_can_read():
    ann, bob = make_user("ann"), make_user("bob")
    t = make_tournament([ann, bob])
    Notice.objects.all().delete()
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    before = [("tournaments", "0007_entered_results_on_games")]
    try:
        executor.migrate(before)
        executor.loader.build_graph()
        then = executor.loader.project_state(before).apps.get_model("tournaments", "Notice")
        read = then.objects.create(tournament_id=t.pk, kind="forfeit", by_id=bob.pk,
                                   text="ann forfeited ann v bob (round 1).",
                                   reason="ann made no move within 5 minutes; claimed by bob.")
        kept = then.objects.create(tournament_id=t.pk, kind="info", text="Tea at four, says annie.")
    finally:
        executor.loader.build_graph()
        executor.migrate(latest)
    read, kept = Notice.objects.get(pk=read.pk), Notice.objects.get(pk=kept.pk)
    assert (read.what_happened, read.text, read.details["user"]) == ("forfeited", "", ann.pk)
    assert read.reason == "{1} made no move within 5 minutes; claimed by {2}." and read.posted_by == bob
    worded_read, worded_kept = notice_words.in_words([read, kept])
    assert worded_read.words == "ann forfeited ann v bob (round 1)."
    assert worded_read.reason_words == "ann made no move within 5 minutes; claimed by bob."
    assert (kept.what_happened, worded_kept.words) == ("", "Tea at four, says annie.")


def test_every_player_a_notice_names_is_looked_up():
    ann, bob = make_user("ann"), make_user("bob")
    t = make_tournament([ann, bob])
    details = {"round": 1, "of": 3, "bye": ann.pk}
    n = Notice.objects.create(tournament=t, kind="round", what_happened="round_opened", details=details)
    (worded,) = notice_words.in_words([n])
    assert worded.words == "Qualifying round 1 of 3 has begun. ann has the bye (a win, no spread)."
    for what_happened, details in [
        ("finished", {"champion": bob.pk}), ("withdrew", {"user": ann.pk}),
        ("result_entered", {"users": [ann.pk, bob.pk], "winner": bob.pk, "won": 1, "lost": 0,
                            "round_name": "round 1", "champion": bob.pk}),
        ("cut_recorded", {"cards": [[ann.pk, "7"]]}),
    ]:
        names = notice_words.names_of(notice_words.user_ids(details)).get
        assert "?" not in notice_words.sentence(what_happened, details, names, {})
