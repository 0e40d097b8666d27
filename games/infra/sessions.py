"""Sessions read from the shared cache and kept in the database, that keep working without the cache.

Django's ``cached_db`` spares every request its session query (a move's among them), but it lets a
cache error through when it writes a session it read from the database, when it deletes one (log
out) and when it checks a new key: with Redis down, every page would be a 500. Here the database
stays the truth and the cache is only a shortcut: a cache that does not answer is skipped, and the
site goes on as with database sessions (``tests/ops/test_sessions.py``).

A copy in the cache lives at most ``CACHE_SECONDS``: had the cache missed a log-out's delete while it
was unreachable, the copy it kept (if it kept any) would be read for minutes, not weeks.
"""

from __future__ import annotations

import logging

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

from games.infra import outages

log = logging.getLogger(__name__)

CACHE_SECONDS = 300


def _cache_failed(what: str) -> None:
    # Logged once an outage, however many requests meet it (games.infra.outages' filter).
    log.warning("session cache unavailable (%s): using the database alone", what, exc_info=True)


class SessionStore(cached_db.SessionStore):
    def load(self) -> dict:
        try:
            data = self._cache.get(self.cache_key)
        except Exception:  # noqa: BLE001 - the cache is a shortcut; the database has every session
            _cache_failed("read")
            return self._load_from_database(remember=False)
        outages.cache.delivered()
        return data if data is not None else self._load_from_database(remember=True)

    def _load_from_database(self, *, remember: bool) -> dict:
        stored = self._get_session_from_db()
        if not stored:
            return {}
        data = self.decode(stored.session_data)
        if remember:
            self._remember(data, self.get_expiry_age(expiry=stored.expire_date))
        return data

    def _remember(self, data: dict, age: int) -> None:
        try:
            self._cache.set(self.cache_key, data, max(0, min(age, CACHE_SECONDS)))
        except Exception:  # noqa: BLE001
            _cache_failed("write")

    def exists(self, session_key: str) -> bool:
        try:
            if session_key and (self.cache_key_prefix + session_key) in self._cache:
                return True
        except Exception:  # noqa: BLE001
            _cache_failed("read")
        return DatabaseStore.exists(self, session_key)

    def save(self, must_create: bool = False) -> None:
        DatabaseStore.save(self, must_create)
        self._remember(self._session, self.get_expiry_age())

    def delete(self, session_key: str | None = None) -> None:
        DatabaseStore.delete(self, session_key)
        key = session_key or self.session_key
        if key is None:
            return
        try:
            self._cache.delete(self.cache_key_prefix + key)
        except Exception:  # noqa: BLE001 - gone from the database; a cached copy expires soon
            _cache_failed("delete")
