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


def build(model: type[models.Model], connection, row, start: int = 0) -> models.Model:
    """An instance of ``model`` from the ``len(concrete_fields)`` values of ``row`` from ``start``."""
    values = list(row[start: start + len(model._meta.concrete_fields)])
    for i, expression, fns in _converters(model, connection):
        value = values[i]
        for fn in fns:
            value = fn(value, expression, connection)
        values[i] = value
    return model.from_db(connection.alias, None, values)


def get(model: type[models.Model], connection, pk, *, lock: bool = False) -> models.Model | None:
    """The ``model`` row with primary key ``pk``, or None. ``lock``: ``SELECT ... FOR UPDATE`` where
    the database has it (a move's row lock)."""
    quote = connection.ops.quote_name
    table, key = quote(model._meta.db_table), quote(model._meta.pk.column)
    sql = f"SELECT {columns(model, table, quote)} FROM {table} WHERE {table}.{key} = %s"
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    found = fetch(connection, sql, [pk])
    return build(model, connection, found[0]) if found else None


def fetch(connection, sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _prepared(model: type[models.Model], connection, values: dict) -> tuple[list[str], list]:
    """Quoted columns and database-ready values (JSON encoded, datetimes adapted…) by field name."""
    fields = [model._meta.get_field(name) for name in values]
    quote = connection.ops.quote_name
    return ([quote(f.column) for f in fields],
            [f.get_db_prep_save(values[f.name], connection) for f in fields])


def insert(model: type[models.Model], connection, values: dict) -> None:
    """One ``INSERT`` of ``values`` (by field name; nothing filled in, no signals sent)."""
    columns_, params = _prepared(model, connection, values)
    table = connection.ops.quote_name(model._meta.db_table)
    placeholders = ", ".join(["%s"] * len(params))
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} ({', '.join(columns_)}) VALUES ({placeholders})", params)


def update(model: type[models.Model], connection, where: dict, values: dict) -> int:
    """``UPDATE ... SET values WHERE where`` (equalities, by field name): the number of rows changed."""
    set_columns, set_params = _prepared(model, connection, values)
    where_columns, where_params = _prepared(model, connection, where)
    table = connection.ops.quote_name(model._meta.db_table)
    sql = (f"UPDATE {table} SET {', '.join(f'{c} = %s' for c in set_columns)} "
           f"WHERE {' AND '.join(f'{c} = %s' for c in where_columns)}")
    with connection.cursor() as cursor:
        cursor.execute(sql, set_params + where_params)
        return cursor.rowcount
