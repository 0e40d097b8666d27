"""Django's PostgreSQL backend, with one change to how a pooled connection is waited for.

A request that finds no free connection in the pool waits for one, up to ``DB_POOL_TIMEOUT``: right
when the site is busy, wrong when the server is down or restarting, where the wait cannot end well
and the player's move would hang for the whole timeout. So the wait is taken a second at a time,
and between two seconds the server is asked directly: if it does not answer, the request fails at
once with the server's own error (answered 503 by ``DatabaseUnavailableMiddleware``, and sent
again by the board), and if it answers the wait goes on.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db.backends.postgresql import base
from psycopg_pool import PoolTimeout

STEP_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        if self.pool is None:
            return super().get_new_connection(conn_params)
        deadline = time.monotonic() + settings.DB_POOL_TIMEOUT
        while True:
            try:
                return super().get_new_connection(conn_params)
            except PoolTimeout:
                if time.monotonic() >= deadline:
                    raise
                self._server_answers(conn_params)

    def _server_answers(self, conn_params) -> None:
        """Raises the server's error (connection refused, starting up, shutting down) if a new
        connection cannot be made; a connection made is closed again at once."""
        self.Database.connect(**{**conn_params, "connect_timeout": 2}).close()
