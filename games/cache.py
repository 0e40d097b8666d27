"""One Redis connection pool per process for Django's cache.

Django's Redis cache builds its connection pool per cache object, and under ASGI each request gets
cache objects of its own: every request opened (and health-checked) a fresh connection to Redis.
``CACHES["default"]["OPTIONS"]["pool_class"]`` points here so they all share one pool instead.
"""

from __future__ import annotations

import threading

import redis


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
