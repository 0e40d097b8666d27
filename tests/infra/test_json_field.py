"""games.infra.fields.JSONField: orjson in and out, the same values as Django's own field."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from games.infra import rows
from games.infra.fields import JSONField, dumps
from games.play.models import Game, Move
from tests.play.factories import act, human_game, make_user

pytestmark = pytest.mark.django_db


def test_dumps_writes_what_the_standard_library_reads():
    value = {"a": [1, 2.5, None, True], "é": "ü", "n": {"x": -3}}
    assert json.loads(dumps(value)) == value


def test_dumps_turns_integer_keys_into_strings_as_json_does():
    assert json.loads(dumps({1: "x"})) == json.loads(json.dumps({1: "x"})) == {"1": "x"}


def test_dumps_falls_back_for_what_orjson_refuses():
    huge = 2**80
    assert json.loads(dumps({"seed": huge})) == {"seed": huge}


def test_migrations_see_django_s_field():
    name, path, _args, _kwargs = Game._meta.get_field("state").deconstruct()
    assert (name, path) == ("state", "django.db.models.JSONField")
    assert isinstance(Game._meta.get_field("state"), JSONField)


def test_a_played_game_reads_back_the_same_through_the_orm_and_the_plain_statements():
    alice, bob = make_user("alice"), make_user("bob")
    game = human_game(alice, bob)
    act(game, alice, {"type": "cut_for_deal", "position": 10})
    game.refresh_from_db()
    written = game.state
    assert written["rules"]["target"] == 121
    again = Game.objects.get(pk=game.pk)
    assert again.state == written and again.last_events == game.last_events
    plain = rows.get(Game, connection, game.pk)
    assert plain.state == written
    move = Move.objects.get(game=game, seq=1)
    assert move.action["type"] == "cut_for_deal"


def test_key_lookups_still_work():
    alice, bob = make_user("alice"), make_user("bob")
    game = human_game(alice, bob)
    act(game, alice, {"type": "cut_for_deal", "position": 10})
    assert Move.objects.filter(game=game, action__type="cut_for_deal").count() == 1
    assert list(Move.objects.filter(game=game).values_list("action__type", flat=True)) == ["cut_for_deal"]


def test_a_value_that_is_not_json_comes_back_as_it_is():
    field = Game._meta.get_field("state")
    assert field.from_db_value("not json", None, connection) == "not json"
    assert field.from_db_value(None, None, connection) is None
