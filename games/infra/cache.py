"""Django's Redis cache with one connection pool, and one client, per process.

Django's Redis cache builds its connection pool per cache object, and under ASGI each request gets
cache objects of its own: every request opened (and health-checked) a fresh connection to Redis.
``CACHES["default"]["OPTIONS"]["pool_class"]`` points here so they all share one pool instead.

It also builds a new ``redis.Redis`` for every command (a session read, a rate-limit count): that
object's constructor was 2% of a worker's CPU under ``bench.load``. A client is only a pool and
its options, safe to share between threads, so each shared pool keeps the one it was given.
"""

from __future__ import annotations

import threading

import redis
from django.core.cache.backends import redis as django_redis


class SharedConnectionPool(redis.ConnectionPool):
    _pools: dict[tuple, redis.ConnectionPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs) -> redis.ConnectionPool:
        key = (url, tuple(sorted((k, repr(v)) for k, v in kwargs.items())))
        with cls._lock:
            pool = cls._pools.get(key)
            if pool is None:
                # redis-py's pools notice a fork by themselves (they check the pid), so one per key.
                pool = cls._pools[key] = super().from_url(url, **kwargs)
        return pool


class SharedClient(django_redis.RedisCacheClient):
    def get_client(self, key=None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)
        client = getattr(pool, "cache_client", None)
        if client is None:  # two threads may both build one: either will do
            client = pool.cache_client = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose client is shared (see above)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = SharedClient
