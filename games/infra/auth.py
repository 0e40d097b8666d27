"""Django's model backend, reading a request's user with one plain statement.

Every request (every move) loads its user from the session's user id. Django's ``get(pk=...)``
spent more in its query compiler than in the query: about 6% of a worker's CPU under bench.load.
Everything else (passwords, permissions, inactive users refused) is Django's own.
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
