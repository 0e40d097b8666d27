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


def _insert_sql(model: type[models.Model], connection, values: dict) -> tuple[str, list]:
    columns_, params = _prepared(model, connection, values)
    table = connection.ops.quote_name(model._meta.db_table)
    placeholders = ", ".join(["%s"] * len(params))
    return f"INSERT INTO {table} ({', '.join(columns_)}) VALUES ({placeholders})", params


def _update_sql(model: type[models.Model], connection, where: dict, values: dict) -> tuple[str, list]:
    set_columns, set_params = _prepared(model, connection, values)
    where_columns, where_params = _prepared(model, connection, where)
    table = connection.ops.quote_name(model._meta.db_table)
    sql = (f"UPDATE {table} SET {', '.join(f'{c} = %s' for c in set_columns)} "
           f"WHERE {' AND '.join(f'{c} = %s' for c in where_columns)}")
    return sql, set_params + where_params


def _execute(connection, sql: str, params: list) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def insert_and_update(connection, new: tuple[type[models.Model], dict],
                      changed: tuple[type[models.Model], dict, dict]) -> int:
    """An ``INSERT`` of ``new`` (a model and its values by field name; nothing filled in, no
    signals sent) and ``UPDATE ... SET values WHERE where`` of ``changed`` (a model, ``where`` as
    equalities by field name, ``values``), in one statement where the database allows it
    (PostgreSQL's ``WITH ... INSERT``): a move's two writes in one round trip. Returns the number
    of rows the update changed."""
    insert_sql, insert_params = _insert_sql(new[0], connection, new[1])
    update_sql, update_params = _update_sql(changed[0], connection, changed[1], changed[2])
    if connection.vendor != "postgresql":
        _execute(connection, insert_sql, insert_params)
        return _execute(connection, update_sql, update_params)
    both = f"WITH inserted AS ({insert_sql}) {update_sql}"
    return _execute(connection, both, insert_params + update_params)
