"""The admin of a model whose primary key is another row's (a one-to-one, such as a game's analysis).

Django's admin looks such an id up through the relation, where the range check it makes for a plain
integer key is not made: an id past the database's integer range is an ``OverflowError`` on SQLite,
a 500, where it is simply an object that does not exist."""

from __future__ import annotations

from django.contrib import admin

BIGINT = range(-(2**63), 2**63)


class OneToOneKeyAdmin(admin.ModelAdmin):
    def get_object(self, request, object_id, from_field=None):
        try:
            out_of_range = from_field is None and int(object_id) not in BIGINT
        except (TypeError, ValueError):
            out_of_range = False
        if out_of_range:
            return None
        return super().get_object(request, object_id, from_field)
