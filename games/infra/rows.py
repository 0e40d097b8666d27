"""Model instances from plain SQL rows, for the few reads on every move and every push (a game's
row, its players' presence), and a move's two writes (the game's row, the new move) as plain
statements.

There Django's query compiler (and ``raw()``, which works out its columns and converters again on
every query) cost more than the queries themselves. Here the column list and each field's
converters (what turns SQLite's text into datetimes, a JSON column into Python) are worked out
once per model and database engine, and a row becomes an instance through ``Model.from_db``.

What it relies on in Django: ``Model.from_db(alias, None, values)`` takes every concrete field's
value in ``_meta.concrete_fields`` order, as Django's own iterators pass them;
``connection.ops.get_db_converters`` and ``Expression.get_db_converters`` give the converters the
ORM applies to a column read back; ``Field.get_db_prep_save(value, connection)`` is what the ORM
sends for a value it INSERTs or UPDATEs, and a cursor's ``rowcount`` after an UPDATE is the number
of rows it matched, as ``QuerySet.update()`` returns it. ``tests/play/test_hot_path.py`` compares
what is built and written here with what the ORM builds and writes.
"""

from __future__ import annotations

from django.db import models

_CONVERTERS: dict[tuple[type[models.Model], str], list] = {}
_WHERE: dict[tuple, str] = {}


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


def where(
    model: type[models.Model], connection, field: str, value, *, order_by: str = ""
) -> list[models.Model]:
    """Every ``model`` row whose ``field`` (a foreign key's name, or a column's) equals ``value``,
    ordered by ``order_by`` (a field name, ``-`` for descending), as
    ``model.objects.filter(field=value).order_by(order_by)`` gives them."""
    key = (model, connection.vendor, field, order_by)
    sql = _WHERE.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        table = quote(model._meta.db_table)
        match = quote(model._meta.get_field(field).column)
        sql = f"SELECT {columns(model, table, quote)} FROM {table} WHERE {match} = %s"
        if order_by:
            column = quote(model._meta.get_field(order_by.lstrip("-")).column)
            sql += f" ORDER BY {column}{' DESC' if order_by.startswith('-') else ''}"
        _WHERE[key] = sql
    return [build(model, connection, row) for row in fetch(connection, sql, [value])]


def fetch(connection, sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


_WRITES: dict[tuple, tuple[str, list]] = {}


def _fields(model: type[models.Model], names) -> list:
    """The fields of ``names``: a field's ``get_db_prep_save`` turns a value into what the ORM
    would send (a dict to JSON text, a datetime to the database's form)."""
    return [model._meta.get_field(n) for n in names]


def insert(model: type[models.Model], connection, values: dict) -> None:
    """``INSERT`` one ``model`` row of ``values`` (field names to values), as
    ``model.objects.create(**values)`` writes it, without building the instance. Values are written
    as given: no field's ``pre_save`` runs, so the caller gives an ``auto_now_add`` field its value."""
    key = ("insert", model, connection.vendor, tuple(values))
    found = _WRITES.get(key)
    if found is None:
        quote, fields = connection.ops.quote_name, _fields(model, values)
        sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
               f"VALUES ({', '.join(['%s'] * len(fields))})")
        found = _WRITES[key] = (sql, fields)
    sql, fields = found
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(v, connection)
                             for f, v in zip(fields, values.values(), strict=True)])


def update(model: type[models.Model], connection, match: dict, values: dict) -> int:
    """``UPDATE`` the ``model`` rows whose fields equal ``match``, setting ``values``, as
    ``model.objects.filter(**match).update(**values)`` does; the number of rows changed."""
    key = ("update", model, connection.vendor, tuple(values), tuple(match))
    found = _WRITES.get(key)
    if found is None:
        quote, setting, matching = connection.ops.quote_name, _fields(model, values), _fields(model, match)
        sql = (f"UPDATE {quote(model._meta.db_table)} "
               f"SET {', '.join(f'{quote(f.column)} = %s' for f in setting)} "
               f"WHERE {' AND '.join(f'{quote(f.column)} = %s' for f in matching)}")
        found = _WRITES[key] = (sql, setting + matching)
    sql, fields = found
    given = [*values.values(), *match.values()]
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(v, connection) for f, v in zip(fields, given, strict=True)])
        return cursor.rowcount
