"""Model fields of the site's own."""

from __future__ import annotations

import json

import orjson
from django.db import models
from django.db.models.fields.json import KeyTransform


def dumps(value) -> bytes:
    """JSON as ``json.dumps`` writes it but for spacing, in a tenth of the time."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # what orjson will not write (an integer past 64 bits): the standard library's way
        return json.dumps(value).encode()


class JSONField(models.JSONField):
    """Django's JSONField, read and written with orjson.

    Every move writes the game's snapshot and every board reads it back: with the standard
    library's encoder and decoder that was 3% of a worker under ``bench.load``. Values are the
    same plain dicts, lists, strings and numbers either way. A field given its own ``encoder`` or
    ``decoder`` keeps Django's path."""

    def deconstruct(self):
        # To migrations this is Django's JSONField: the column is the same, and a field class of
        # our own in the migrations would make SQLite rebuild the tables for nothing.
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs

    def from_db_value(self, value, expression, connection):
        if self.decoder is None and isinstance(value, str) and not isinstance(expression, KeyTransform):
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                return value  # as Django does: a value that is not JSON comes back as it is
        return super().from_db_value(value, expression, connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        if self.encoder is not None:
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb

            return Jsonb(value, dumps=dumps)
        return dumps(value).decode()
