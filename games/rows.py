"""Model instances from plain SQL rows, for the few reads on every move and every push.

There Django's query compiler (and ``raw()``, which works out its columns and converters again on
every query) cost more than the queries themselves. Here the column list and each field's
converters (what turns SQLite's text into datetimes, a JSON column into Python) are worked out
once per model and database engine, and a row becomes an instance through ``Model.from_db``, as
Django's own iterators do.
"""

from __future__ import annotations

from django.db import models

_CONVERTERS: dict[tuple[type[models.Model], str], list] = {}


def columns(model: type[models.Model], table: str, quote) -> str:
    """``table.col, ...`` for every concrete field of ``model``, in the order ``build`` expects."""
    return ", ".join(f"{table}.{quote(f.column)}" for f in model._meta.concrete_fields)


def _converters(model: type[models.Model], connection) -> list:
    key = (model, connection.vendor)
    found = _CONVERTERS.get(key)
    if found is None:
        found = []
        for i, field in enumerate(model._meta.concrete_fields):
            expression = field.get_col(model._meta.db_table)
            fns = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
            if fns:
                found.append((i, expression, fns))
        _CONVERTERS[key] = found
    return found


def build(model: type[models.Model], connection, row) -> models.Model:
    """An instance of ``model`` from the first ``len(concrete_fields)`` values of ``row``."""
    values = list(row[: len(model._meta.concrete_fields)])
    for i, expression, fns in _converters(model, connection):
        value = values[i]
        for fn in fns:
            value = fn(value, expression, connection)
        values[i] = value
    return model.from_db(connection.alias, None, values)


def fetch(connection, sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
