"""Django's model backend, reading a request's user with one plain statement.

Every request (every move) loads its user from the session's user id, and Django's
``get(pk=...)`` spends more in its query compiler than in the query (bench.move: about 7% of a
move's CPU). Everything else (passwords, permissions, inactive users refused) is Django's own.

What it relies on in Django: ``ModelBackend.get_user(user_id)`` is the one method the session's
user is read through, and returns None for a user it refuses; ``games.infra.rows`` builds the same
instance as the ORM (``tests/infra/test_auth_backend.py`` compares them field by field).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.core.exceptions import ValidationError
from django.db import connections, router

from games.infra import rows


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id):
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = rows.get(model, connections[router.db_for_read(model)], pk)
        return user if user is not None and self.user_can_authenticate(user) else None
