"""One row and its children in one plain statement, given as ``prefetch_related`` would give them.

What it relies on in Django (``check`` below runs as a system check at start-up, and
``tests/play/test_hot_path.py`` compares the result with ``prefetch_related`` field by field, so an
upgrade that changes any of these, or a child field of a kind JSON does not carry, fails there):

- ``Model.from_db(alias, field_names, values)`` builds an instance from database values, as
  Django's own iterators do, and a field left out of ``field_names`` is deferred (loaded when read);
- a related manager's ``all()`` reads ``instance._prefetched_objects_cache[related_name]``, a
  queryset whose ``_result_cache`` is filled and ``_prefetch_done`` set, as ``prefetch_related``
  leaves it; ``_defer_next_filter`` keeps its filter uncompiled until it is refined;
- a forward relation's cached value is set with ``field.set_cached_value``.

Used where a game and its seats are read on every move and every push: Django's query compiler
and a second statement for the seats cost more there than the statements themselves.
"""

from __future__ import annotations

import functools
import inspect
import json
from operator import itemgetter

from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db import connections, models
from django.db.models.fields.related_descriptors import create_reverse_many_to_one_manager

from games.infra import rows

# The children's columns travel as JSON, which carries these as they are; a field of another kind
# (a date, a boolean) would need its own conversion.
_JSON_TYPES = {"AutoField", "BigAutoField", "ForeignKey", "PositiveSmallIntegerField", "CharField"}
_SQL: dict[tuple, str] = {}
# What the cache handed to a related manager must look like for it to be read as prefetched.
_QUERYSET_ATTRIBUTES = ("_result_cache", "_prefetch_done", "_defer_next_filter")


def check(
    model: type[models.Model], relation: str, *, related: str, related_field: str
) -> list[checks.Error]:
    """What ``get_with_children(model, pk, relation, related=…, related_field=…)`` needs, as system
    check errors: children whose every column JSON carries as it is, the related object's field,
    and the ORM internals the cache is built from."""
    where = f"{model.__name__}.{relation}"
    child = model._meta.get_field(relation).related_model
    errors = [
        checks.Error(
            f"{child.__name__}.{f.name} is a {f.get_internal_type()}, which games.infra.children does not "
            f"carry through JSON ({where} is read in one statement)",
            hint="Convert it in games/infra/children.py and add its type to _JSON_TYPES.",
            obj=child, id="infra.E001",
        )
        for f in child._meta.concrete_fields
        if f.get_internal_type() not in _JSON_TYPES
    ]
    other = child._meta.get_field(related).related_model
    try:
        other._meta.get_field(related_field)
    except FieldDoesNotExist:
        errors.append(
            checks.Error(f"{other.__name__} has no field {related_field!r} ({where})", id="infra.E002")
        )
    queryset = models.QuerySet(child)
    missing = [name for name in _QUERYSET_ATTRIBUTES if not hasattr(queryset, name)]
    if "_prefetched_objects_cache" not in inspect.getsource(create_reverse_many_to_one_manager):
        missing.append("RelatedManager reading _prefetched_objects_cache")
    if missing:
        errors.append(checks.Error(
            f"Django no longer has {', '.join(missing)}: games.infra.children cannot fill {where}'s cache",
            hint="Read this Django's prefetch_related and bring games/infra/children.py up to date.",
            id="infra.E003",
        ))
    return errors


def get_with_children(
    model: type[models.Model], pk, relation: str, *, order_by: str, related: str,
    related_field: str, using: str = "default", lock: bool = False,
) -> models.Model | None:
    """The ``model`` row ``pk`` with its ``relation`` (a reverse foreign key, such as a game's
    seats) ordered by ``order_by``, each child with its ``related`` object (a nullable foreign
    key) holding only its primary key and ``related_field``; anything else of it is read when
    asked for, as with ``only()``. ``lock``: ``SELECT ... FOR UPDATE`` of the parent's row alone,
    where the database has it. None when there is no such row."""
    connection = connections[using]
    child_field = model._meta.get_field(relation).field
    found = rows.fetch(connection, _sql(connection, model, child_field, related, related_field, lock), [pk])
    if not found:
        return None
    parent = rows.build(model, connection, found[0])
    _attach(parent, connection, relation, child_field, found[0][-1], order_by, related, related_field)
    return parent


def _sql(connection, model, child_field, related: str, related_field: str, lock: bool) -> str:
    """``SELECT parent..., children``: the parent's row once, and its children (each with its
    related object's field) as one JSON array of arrays in the last column. A join would repeat
    the parent's columns on every child's row, and parse them again for each."""
    key = (connection.alias, connection.vendor, model, child_field, related, related_field, lock)
    sql = _SQL.get(key)
    if sql is not None:
        return sql
    child = child_field.model
    fields = child._meta.concrete_fields
    if any(f.get_internal_type() not in _JSON_TYPES for f in fields):
        raise TypeError(f"a {child.__name__} field that JSON does not carry as it is: see _JSON_TYPES")
    link = child._meta.get_field(related)
    other = link.related_model
    quote = connection.ops.quote_name
    values = ", ".join([*(f"c.{quote(f.column)}" for f in fields),
                        f"r.{quote(other._meta.get_field(related_field).column)}"])
    if connection.vendor == "postgresql":
        children = f"json_agg(json_build_array({values}))::text"
    else:
        children = f"json_group_array(json_array({values}))"
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    sql = (
        f"SELECT {rows.columns(model, 'p', quote)}, "
        f"(SELECT {children} FROM {quote(child._meta.db_table)} c "
        f"LEFT JOIN {quote(other._meta.db_table)} r "
        f"ON r.{quote(other._meta.pk.column)} = c.{quote(link.column)} "
        f"WHERE c.{quote(child_field.column)} = p.{pk}) "
        f"FROM {table} p WHERE p.{pk} = %s"
    )
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE OF p" if connection.features.has_select_for_update_of else " FOR UPDATE"
    _SQL[key] = sql
    return sql


@functools.cache
def _sort_key(child: type[models.Model], order_by: str) -> itemgetter:
    return itemgetter([f.attname for f in child._meta.concrete_fields].index(order_by))


def _attach(parent, connection, relation: str, child_field, children_json: str | None, order_by: str,
            related: str, related_field: str) -> None:
    """Put the children into the cache ``parent.<relation>.all()`` reads.

    A child does not point back at its parent (reading it would query again, and nothing on the hot
    path asks): the back-reference made every loaded parent a reference cycle, left for the garbage
    collector instead of freed when the request was done."""
    child = child_field.model
    link = child._meta.get_field(related)
    other = link.related_model
    other_fields = [other._meta.pk.attname, related_field]
    found = []
    for values in sorted(json.loads(children_json) if children_json else (),
                         key=_sort_key(child, order_by)):
        instance = child.from_db(connection.alias, None, values[:-1])
        key = getattr(instance, link.attname)
        if key is not None:
            link.set_cached_value(instance, other.from_db(connection.alias, other_fields, [key, values[-1]]))
        found.append(instance)
    # As a related manager's prefetch does: the filter is kept, but compiled only if the cached
    # queryset is ever refined (parent.children.filter(...)).
    cached = models.QuerySet(child, using=connection.alias)
    cached._defer_next_filter = True
    cached = cached.filter(**{child_field.attname: parent.pk})
    cached._result_cache, cached._prefetch_done = found, True
    parent._prefetched_objects_cache = {relation: cached}
