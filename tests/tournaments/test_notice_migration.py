"""The data migration that turns the notices already written into data (0008): each sentence the
site wrote is read back into its ``what`` and ``params`` and words the same when shown; one it
cannot read (a name no longer a username) keeps its text."""

from __future__ import annotations

from importlib import import_module

import pytest

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


def test_the_migration_rewrites_rows_it_can_read(django_db_blocker):
    from django.apps import apps
    from django.db import connection

    ann, bob = make_user("ann"), make_user("bob")
    t = make_tournament([ann, bob])
    Notice.objects.all().delete()
    read = Notice.objects.create(tournament=t, kind="forfeit", text="ann forfeited ann v bob (round 1).",
                                 reason="ann made no move within 5 minutes; claimed by bob.")
    kept = Notice.objects.create(tournament=t, kind="info", text="Tea at four, says annie.")
    migration.forward(apps, connection.schema_editor())
    read.refresh_from_db()
    kept.refresh_from_db()
    assert (read.what, read.text, read.params["user"]) == ("forfeited", "", ann.pk)
    assert read.reason == "{1} made no move within 5 minutes; claimed by {2}."
    assert read.words == "ann forfeited ann v bob (round 1)."
    assert read.reason_words == "ann made no move within 5 minutes; claimed by bob."
    assert (kept.what, kept.words) == ("", "Tea at four, says annie.")


def test_every_player_a_notice_names_is_looked_up():
    ann, bob = make_user("ann"), make_user("bob")
    t = make_tournament([ann, bob])
    params = {"round": 1, "of": 3, "bye": ann.pk}
    n = Notice.objects.create(tournament=t, kind="round", what="round_opened", params=params)
    assert n.words == "Qualifying round 1 of 3 has begun. ann has the bye (a win, no spread)."
    for what, p in [("finished", {"champion": bob.pk}), ("withdrew", {"user": ann.pk}),
                    ("result_entered", {"users": [ann.pk, bob.pk], "winner": bob.pk, "won": 1, "lost": 0,
                                        "round_name": "round 1", "champion": bob.pk}),
                    ("cut_recorded", {"cards": [[ann.pk, "7"]]})]:
        names = notice_words.names_of(notice_words.user_ids(p)).get
        assert "?" not in notice_words.sentence(what, p, names, {})
