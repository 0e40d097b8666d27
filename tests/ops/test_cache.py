"""The Redis cache: one connection pool and one client per process, shared by every request."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.cache import caches

from games.play import ratelimit


@pytest.fixture
def redis_cache(settings, redis_url):
    if not redis_url:
        pytest.skip("needs REDIS_URL (the PostgreSQL + Redis run)")
    settings.CACHES = {"default": {
        "BACKEND": "games.infra.cache.RedisCache", "LOCATION": redis_url, "KEY_PREFIX": "test-shared-client",
        "OPTIONS": {"pool_class": "games.infra.cache.SharedConnectionPool"},
    }}
    return redis_url


def _cache_of_another_request():
    """The cache object a request on another thread gets (Django keeps one per thread/task)."""
    found = []
    thread = threading.Thread(target=lambda: found.append(caches["default"]))
    thread.start()
    thread.join()
    return found[0]


def test_requests_share_one_pool_and_one_client(redis_cache):
    here, there = caches["default"], _cache_of_another_request()
    assert here is not there  # each request its own cache object, as under ASGI
    client = here._cache.get_client("k", write=True)
    assert there._cache.get_client("k", write=True) is client
    assert here._cache.get_client("k") is client  # one server: reads and writes go to one pool
    assert client.connection_pool is there._cache._get_connection_pool(True)


def test_the_shared_client_reads_writes_and_counts(redis_cache):
    cache = caches["default"]
    cache.set("shared-client-probe", {"a": 1}, 5)
    assert _cache_of_another_request().get("shared-client-probe") == {"a": 1}
    rate = ratelimit.parse_rate("3/m")
    who = uuid.uuid4().hex  # a fresh window whenever the test runs
    assert [ratelimit.hit("test", who, rate) for _ in range(4)] == [True, True, True, False]
    cache.delete("shared-client-probe")

